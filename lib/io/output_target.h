#pragma once
// Where an output path really leads, decided before anything is written:
//   - a regular file or a new name: written to a temporary file beside it and renamed into place
//     (a symlink is followed to its target, so the link stays and its target is replaced);
//   - a FIFO, a character or block device (/dev/null, a tape, a pipe made with mkfifo): opened
//     and written directly, never renamed over or replaced;
//   - "-", /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: the already open descriptor,
//     written directly (so `-o /dev/stdout >> log` appends instead of truncating the log);
//   - a directory, a socket or a symlink loop: refused with a SystemError naming the path.
#include <string>

namespace gnnpart::io {

struct OutputTarget {
  enum class Kind { kRegular, kSpecial, kDescriptor };
  Kind kind = Kind::kRegular;
  std::string path; // the file to write: the symlink's target for kRegular
  int descriptor = -1; // kDescriptor: the open descriptor to duplicate
};

OutputTarget resolve_output_target(const std::string& path);

// Checks, before a long run, that the output can be written: the target's directory exists and
// takes a new file (probed by creating and removing one, which also holds for root and for
// read-only mounts), or the special file opens for writing. Throws SystemError naming the path.
void check_output_writable(const std::string& path);
// The same for an output directory written as a whole (a trainer layout): its parent takes a
// new entry and the path is not an existing non-directory.
void check_output_directory_writable(const std::string& dir);

} // namespace gnnpart::io
