#pragma once
// Scratch and temporary output files that a signal must not leave behind. The objects that
// create such files (streaming::TempFile, io::OutputFile) register their paths here and remove
// them on every normal or error exit themselves (destructors); a process killed by SIGINT,
// SIGTERM or SIGHUP runs no destructors, so a CLI that asks for it (install_signal_cleanup)
// gets a handler that unlinks the registered paths and then dies of the same signal.
// The library installs nothing unless asked.
#include <string>

namespace gnnpart::io {

// A new file named prefix + 6 random characters (O_EXCL, O_CLOEXEC, write-only, mode 0666 less
// the umask), registered before it is created, so that a signal at any moment removes it.
// fd < 0 and errno set on failure (after 100 names taken, errno EEXIST).
struct UniqueFile {
  int fd = -1;
  std::string path;
  int cleanup_slot = -1; // for unregister_cleanup_path; -1: not registered
};
UniqueFile create_unique_file(const std::string& prefix, const void* salt);

// Call once the file is removed or renamed away.
void unregister_cleanup_path(int slot) noexcept;

// Installs the handler for SIGINT, SIGTERM and SIGHUP (for the CLI's main).
void install_signal_cleanup();

} // namespace gnnpart::io
