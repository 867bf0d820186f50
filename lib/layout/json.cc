// Field readers of a layout manifest (the JSON itself is parsed by io/json_reader).
#include "layout/json.h"

#include <string>

#include "core/errors.h"

namespace gnnpart::io::layout {

std::uint64_t json_uint(const std::string& path, const Json& object, const std::string& key,
                        bool required) {
  const Json* v = object.find(key);
  if (v == nullptr) {
    if (!required)
      return 0;
    throw InputError(path, 0, "manifest lacks \"" + key + "\"");
  }
  if (v->type != Json::Type::kNumber || v->text.find_first_of(".eE-") != std::string::npos) {
    throw InputError(path, 0, "manifest \"" + key + "\" is not a non-negative integer");
  }
  return std::stoull(v->text);
}

std::string json_string(const std::string& path, const Json& object, const std::string& key) {
  const Json* v = object.find(key);
  if (v == nullptr || v->type != Json::Type::kString) {
    throw InputError(path, 0, "manifest lacks string \"" + key + "\"");
  }
  return v->text;
}

} // namespace gnnpart::io::layout
