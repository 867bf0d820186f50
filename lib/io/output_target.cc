#include "io/output_target.h"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <charconv>
#include <cstring>
#include <string_view>

#include "core/errors.h"

namespace gnnpart::io {
namespace {

constexpr int kMaxSymlinks = 40; // as the kernel's own limit on a path walk

std::string describe_errno(const std::string& path, const std::string& what) {
  return path + ": " + what + ": " + std::strerror(errno);
}

// The descriptor a path names without a file behind it, or -1.
int descriptor_of(std::string_view path) {
  if (path == "-" || path == "/dev/stdout")
    return STDOUT_FILENO;
  if (path == "/dev/stderr")
    return STDERR_FILENO;
  for (const std::string_view prefix : {std::string_view("/dev/fd/"),
                                        std::string_view("/proc/self/fd/")}) {
    if (path.substr(0, prefix.size()) != prefix)
      continue;
    const std::string_view digits = path.substr(prefix.size());
    int fd = -1;
    const auto result = std::from_chars(digits.data(), digits.data() + digits.size(), fd);
    if (result.ec == std::errc() && result.ptr == digits.data() + digits.size() && fd >= 0)
      return fd;
  }
  return -1;
}

std::string parent_of(const std::string& path) {
  const std::size_t slash = path.find_last_of('/');
  if (slash == std::string::npos)
    return ".";
  return slash == 0 ? "/" : path.substr(0, slash);
}

// Follows a chain of symlinks to the first path that is not one (it may not exist yet).
std::string follow_symlinks(const std::string& path) {
  std::string current = path;
  for (int hop = 0; hop < kMaxSymlinks; ++hop) {
    struct stat info{};
    if (::lstat(current.c_str(), &info) != 0 || !S_ISLNK(info.st_mode))
      return current;
    std::string target(4096, '\0');
    const ssize_t length = ::readlink(current.c_str(), target.data(), target.size());
    if (length < 0)
      throw SystemError(describe_errno(path, "cannot read the symbolic link"));
    target.resize(static_cast<std::size_t>(length));
    current = target.front() == '/' ? target : parent_of(current) + "/" + target;
  }
  throw SystemError(path + ": too many levels of symbolic links");
}

} // namespace

OutputTarget resolve_output_target(const std::string& path) {
  if (path.empty())
    throw SystemError("empty output path");
  OutputTarget target;
  if (const int fd = descriptor_of(path); fd >= 0) {
    target.kind = OutputTarget::Kind::kDescriptor;
    target.path = path;
    target.descriptor = fd;
    return target;
  }
  target.path = follow_symlinks(path);
  struct stat info{};
  if (::stat(target.path.c_str(), &info) != 0) {
    if (errno == ENOENT)
      return target; // a new regular file
    throw SystemError(describe_errno(path, "cannot inspect the output"));
  }
  if (S_ISREG(info.st_mode))
    return target;
  if (S_ISFIFO(info.st_mode) || S_ISCHR(info.st_mode) || S_ISBLK(info.st_mode)) {
    target.kind = OutputTarget::Kind::kSpecial;
    return target;
  }
  if (S_ISDIR(info.st_mode))
    throw SystemError(path + ": is a directory; name an output file");
  throw SystemError(path + ": is neither a regular file, a FIFO nor a device; refusing to "
                           "write to it");
}

void check_output_writable(const std::string& path) {
  const OutputTarget target = resolve_output_target(path);
  if (target.kind == OutputTarget::Kind::kDescriptor) {
    if (::fcntl(target.descriptor, F_GETFD) < 0)
      throw SystemError(describe_errno(path, "descriptor is not open"));
    return;
  }
  if (target.kind == OutputTarget::Kind::kSpecial) {
    // A FIFO without a reader would block an open for writing: check the permission only.
    if (::access(target.path.c_str(), W_OK) != 0)
      throw SystemError(describe_errno(path, "cannot write"));
    return;
  }
  const std::string probe = target.path + ".tmp.probe.XXXXXX";
  std::string name = probe;
  const int fd = ::mkstemp(name.data());
  if (fd < 0)
    throw SystemError(describe_errno(path, "cannot create the output file"));
  ::close(fd);
  ::unlink(name.c_str());
}

void check_output_directory_writable(const std::string& dir) {
  if (dir.empty())
    throw SystemError("empty output directory path");
  std::string trimmed = dir;
  while (trimmed.size() > 1 && trimmed.back() == '/')
    trimmed.pop_back();
  struct stat info{};
  if (::stat(trimmed.c_str(), &info) == 0 && !S_ISDIR(info.st_mode))
    throw SystemError(dir + ": exists and is not a directory");
  std::string name = follow_symlinks(trimmed) + ".tmp.probe.XXXXXX";
  if (::mkdtemp(name.data()) == nullptr)
    throw SystemError(describe_errno(dir, "cannot create the output directory"));
  ::rmdir(name.c_str());
}

} // namespace gnnpart::io
