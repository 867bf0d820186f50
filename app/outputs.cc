#include "outputs.h"

#include <algorithm>
#include <filesystem>
#include <system_error>

#include "io/output_target.h"

namespace gnnpart::app {

const std::string& CommandOutputs::file(const std::string& path) {
  if (!path.empty())
    io::check_output_writable(path);
  return path;
}

const std::string& CommandOutputs::directory(const std::string& path) {
  if (!path.empty()) {
    io::check_output_directory_writable(path);
    directories_.push_back(path);
  }
  return path;
}

void CommandOutputs::written(const std::string& path) {
  written_.push_back(path);
}

CommandOutputs::~CommandOutputs() {
  if (kept_)
    return;
  namespace fs = std::filesystem;
  for (const std::string& path : written_) {
    std::error_code ec;
    const bool is_directory =
        std::find(directories_.begin(), directories_.end(), path) != directories_.end();
    if (is_directory) {
      fs::remove_all(path, ec);
      continue;
    }
    try {
      const io::OutputTarget target = io::resolve_output_target(path);
      if (target.kind == io::OutputTarget::Kind::kRegular)
        fs::remove(target.path, ec);
    } catch (...) {
      // Cannot tell what it is any more: leave it.
    }
  }
}

std::string default_output_path(const std::string& input, const std::string& suffix) {
  std::string name = std::filesystem::path(input).filename().string();
  if (name.empty() || name == "-")
    name = "stdin";
  return name + suffix;
}

} // namespace gnnpart::app
