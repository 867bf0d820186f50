#pragma once
// The outputs of one command run: every one is checked for writability before the work starts
// (so an unwritable -o fails in a second, not after the whole run), and those already written
// are removed again when the command fails later, so a failed run leaves none of its outputs
// (a partition file and its layout directory go together). Special files (a FIFO, a device,
// standard output) are written directly and never removed.
#include <string>
#include <vector>

namespace gnnpart::app {

class CommandOutputs {
public:
  CommandOutputs() = default;
  ~CommandOutputs();
  CommandOutputs(const CommandOutputs&) = delete;
  CommandOutputs& operator=(const CommandOutputs&) = delete;

  // Checks the path now; empty paths are ignored. Returns the path.
  const std::string& file(const std::string& path);
  const std::string& directory(const std::string& path);
  // Call after each output is in place: it is removed if the run fails afterwards.
  void written(const std::string& path);
  // The run succeeded: keep everything.
  void keep() { kept_ = true; }

private:
  std::vector<std::string> written_;
  std::vector<std::string> directories_;
  bool kept_ = false;
};

// Default output name: BASENAME(input) + suffix in the current directory (never beside the
// input, which may be a shared or read-only dataset directory).
std::string default_output_path(const std::string& input, const std::string& suffix);

} // namespace gnnpart::app
