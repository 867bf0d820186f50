#pragma once
// A small JSON reader, enough for manifests and profiles (objects, arrays, strings, numbers,
// booleans, null). Malformed text is an InputError naming FILE:LINE.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gnnpart::io {

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string text;       // string value, or the number as written
  std::uint64_t line = 0; // where the value starts in its file (1-based)
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json* find(const std::string& key) const {
    const auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
};

Json parse_json(const std::string& path, std::string text);
// The whole file as text (InputError when it cannot be opened).
std::string read_text_file(const std::string& path);
Json read_json_file(const std::string& path);
// s as a JSON string literal (quotes, escapes), for writers.
std::string json_quoted(const std::string& s);

} // namespace gnnpart::io
