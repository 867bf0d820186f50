#pragma once
// A small JSON reader, enough for a layout manifest (objects, arrays, strings, numbers), and
// the helpers that read its fields. Errors are InputError naming the file and line.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

namespace gnnpart::io::layout {

struct Json {
  enum class Type { kNull, kBool, kNumber, kString, kArray, kObject } type = Type::kNull;
  bool boolean = false;
  double number = 0;
  std::string text; // string value, or the number as written
  std::vector<Json> items;
  std::map<std::string, Json> fields;

  const Json* find(const std::string& key) const {
    const auto it = fields.find(key);
    return it == fields.end() ? nullptr : &it->second;
  }
};

// Parses one JSON value (the whole text); `path` names the file in errors.
Json parse_json(const std::string& path, std::string text);

// The file's bytes. Throws InputError when it cannot be opened.
std::string read_text(const std::string& path);

// A required (or optional, 0 when absent) non-negative integer field of `object`.
std::uint64_t json_uint(const std::string& path, const Json& object, const std::string& key,
                        bool required = true);
// A required string field of `object`.
std::string json_string(const std::string& path, const Json& object, const std::string& key);

// `s` as a JSON string literal.
std::string quoted(const std::string& s);

} // namespace gnnpart::io::layout
