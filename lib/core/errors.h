#pragma once
// Library errors are exceptions; status codes exist only at the C API boundary.
#include <cstdint>
#include <stdexcept>
#include <string>

namespace gnnpart {

class Error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Malformed input: what() reads "FILE:LINE: message" (or "FILE: message" when line is 0).
class InputError : public Error {
 public:
  InputError(std::string file, std::uint64_t line, const std::string& message);
  const std::string& file() const { return file_; }
  std::uint64_t line() const { return line_; }
  const std::string& message() const { return message_; }

 private:
  std::string file_;
  std::uint64_t line_;
  std::string message_;
};

// A parameter outside its domain (k = 0, epsilon < 0, mismatched array sizes, ...).
class InvalidParameter : public Error {
 public:
  using Error::Error;
};

// The balance bound cannot be met (e.g. a vertex heavier than a block may be).
class InfeasibleBalance : public Error {
 public:
  using Error::Error;
};

// Asked for something this build cannot do.
class Unsupported : public Error {
 public:
  using Error::Error;
};

// The operating system refused (open, write, rename, mmap ...).
class SystemError : public Error {
 public:
  using Error::Error;
};

}  // namespace gnnpart
