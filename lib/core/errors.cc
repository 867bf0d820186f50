#include "core/errors.h"

namespace gnnpart {

namespace {
std::string locate(const std::string& file, std::uint64_t line, const std::string& message) {
  if (line == 0) return file + ": " + message;
  return file + ":" + std::to_string(line) + ": " + message;
}
}  // namespace

InputError::InputError(std::string file, std::uint64_t line, const std::string& message)
    : Error(locate(file, line, message)), file_(std::move(file)), line_(line), message_(message) {}

}  // namespace gnnpart
