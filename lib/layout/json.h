#pragma once
// Reading a layout manifest's fields on top of io's JSON reader. Errors are InputError naming
// the file.
#include <cstdint>
#include <string>

#include "io/json_reader.h"

namespace gnnpart::io::layout {

using io::Json;
using io::parse_json;

// A required (or optional, 0 when absent) non-negative integer field of `object`.
std::uint64_t json_uint(const std::string& path, const Json& object, const std::string& key,
                        bool required = true);
// A required string field of `object`.
std::string json_string(const std::string& path, const Json& object, const std::string& key);

} // namespace gnnpart::io::layout
