#pragma once
// Atomic directory writing: a layout is built in DIR.tmp.XXXXXX beside DIR, and commit()
// renames it into place (moving an existing layout directory aside first), so a failed run
// leaves no partial layout. Its files are written through io::OutputFile.
#include <filesystem>
#include <string>

#include "core/types.h"

namespace gnnpart::io::layout {

namespace fs = std::filesystem;

class StagingDir {
public:
  explicit StagingDir(const std::string& target);
  ~StagingDir();
  StagingDir(const StagingDir&) = delete;
  StagingDir& operator=(const StagingDir&) = delete;

  const fs::path& path() const { return tmp_; }

  // Renames the staged directory onto the target. Throws InvalidParameter when the target
  // exists and is not a layout directory (nor empty), SystemError when a rename fails.
  void commit();

private:
  fs::path target_;
  fs::path tmp_;
  bool committed_ = false;
};

// Writes `text` to `path` (write-then-rename through io::OutputFile).
void write_text(const fs::path& path, const std::string& text);

// Creates root/part<p>.
fs::path make_block_dir(const fs::path& root, BlockID p);

} // namespace gnnpart::io::layout
