#include "streaming/temp_file.h"

#include <stdlib.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "core/errors.h"

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
  std::string pattern = resolve_temp_dir(dir) + "/gnnpart-" + tag + "-XXXXXX";
  const int fd = ::mkstemp(pattern.data());
  if (fd < 0)
    throw SystemError(pattern + ": cannot create temporary file: " + std::strerror(errno));
  ::close(fd);
  path_ = pattern;
}

TempFile::~TempFile() {
  if (!path_.empty())
    ::unlink(path_.c_str());
}

TempFile::TempFile(TempFile&& other) noexcept : path_(std::move(other.path_)) {
  other.path_.clear();
}

} // namespace gnnpart::streaming
