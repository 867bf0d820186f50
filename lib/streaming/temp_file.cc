#include "streaming/temp_file.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"
#include "io/signal_cleanup.h"

namespace gnnpart::streaming {

std::string resolve_temp_dir(const std::string& dir) {
  if (!dir.empty())
    return dir;
  const char* env = std::getenv("TMPDIR");
  if (env != nullptr && *env != '\0')
    return env;
  return "/tmp";
}

TempFile::TempFile(const std::string& dir, const std::string& tag) {
  io::UniqueFile file =
      io::create_unique_file(resolve_temp_dir(dir) + "/gnnpart-" + tag + "-", this);
  if (file.fd < 0)
    throw SystemError(file.path + ": cannot create temporary file: " + std::strerror(errno));
  ::close(file.fd);
  path_ = std::move(file.path);
  cleanup_slot_ = file.cleanup_slot;
}

TempFile::~TempFile() {
  if (!path_.empty())
    ::unlink(path_.c_str());
  io::unregister_cleanup_path(cleanup_slot_);
}

TempFile::TempFile(TempFile&& other) noexcept
    : path_(std::move(other.path_)), cleanup_slot_(other.cleanup_slot_) {
  other.path_.clear();
  other.cleanup_slot_ = -1;
}

} // namespace gnnpart::streaming
