#pragma once
// Whole files as strings, for the tests of every module (bytes as they are: binary mode).
#include <fstream>
#include <sstream>
#include <string>

namespace gnnpart::test_files {

inline std::string read_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream buffer;
  buffer << in.rdbuf();
  return buffer.str();
}

inline void write_text(const std::string& path, const std::string& text) {
  std::ofstream(path, std::ios::binary) << text;
}

} // namespace gnnpart::test_files
