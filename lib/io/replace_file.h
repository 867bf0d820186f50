#pragma once
// Putting a finished temporary file in the place of an output, atomically (a reader sees the old
// file or the new one, never neither): OutputFile::commit uses it, and so do writers that make
// their temporary file otherwise (gnnpart-mpi's ranks write theirs with MPI-IO).
#include <string>

namespace gnnpart::io {

// An existing regular file at target is swapped out and unlinked rather than renamed over
// (output_file.cc says why). `path` names the output in messages. Throws SystemError.
void replace_file(const std::string& temp, const std::string& target, const std::string& path);

} // namespace gnnpart::io
