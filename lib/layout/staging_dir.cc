#include "layout/staging_dir.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <system_error>

#include <fmt/format.h>

#include "core/errors.h"
#include "io/output_file.h"

namespace gnnpart::io::layout {

StagingDir::StagingDir(const std::string& target) : target_(fs::path(target)) {
  if (target_.filename().empty())
    target_ = target_.parent_path();
  const fs::path parent = target_.has_parent_path() ? target_.parent_path() : fs::path(".");
  std::error_code ec;
  fs::create_directories(parent, ec);
  if (ec)
    throw SystemError(parent.string() + ": cannot create directory: " + ec.message());
  std::string pattern = target_.string() + ".tmp.XXXXXX";
  if (mkdtemp(pattern.data()) == nullptr) {
    throw SystemError(pattern + ": cannot create directory: " + std::strerror(errno));
  }
  tmp_ = pattern;
}

StagingDir::~StagingDir() {
  if (!committed_) {
    std::error_code ec;
    fs::remove_all(tmp_, ec);
  }
}

void StagingDir::commit() {
  std::error_code ec;
  fs::permissions(tmp_,
                  fs::perms::owner_all | fs::perms::group_read | fs::perms::group_exec |
                      fs::perms::others_read | fs::perms::others_exec,
                  ec);
  if (fs::exists(target_)) {
    const bool replaceable = fs::is_directory(target_) &&
                             (fs::is_empty(target_) || fs::exists(target_ / "layout.json"));
    if (!replaceable) {
      throw InvalidParameter(target_.string() +
                             ": exists and is not a layout directory; not replacing it");
    }
    fs::path old = target_.string() + ".old.XXXXXX";
    std::string pattern = old.string();
    if (mkdtemp(pattern.data()) == nullptr) {
      throw SystemError(pattern + ": cannot create directory: " + std::strerror(errno));
    }
    fs::remove(pattern);
    fs::rename(target_, pattern, ec);
    if (ec)
      throw SystemError(target_.string() + ": cannot move aside: " + ec.message());
    fs::rename(tmp_, target_, ec);
    if (ec) {
      std::error_code ignored;
      fs::rename(pattern, target_, ignored);
      throw SystemError(target_.string() + ": cannot rename into place: " + ec.message());
    }
    fs::remove_all(pattern, ec);
  } else {
    fs::rename(tmp_, target_, ec);
    if (ec)
      throw SystemError(target_.string() + ": cannot rename into place: " + ec.message());
  }
  committed_ = true;
}

void write_text(const fs::path& path, const std::string& text) {
  OutputFile out(path.string(), false);
  out.write(text);
  out.commit();
}

fs::path make_block_dir(const fs::path& root, BlockID p) {
  const fs::path dir = root / fmt::format("part{}", p);
  std::error_code ec;
  fs::create_directory(dir, ec);
  if (ec)
    throw SystemError(dir.string() + ": cannot create directory: " + ec.message());
  return dir;
}

} // namespace gnnpart::io::layout
