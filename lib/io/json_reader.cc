#include "io/json_reader.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <sstream>
#include <utility>

#include <fmt/format.h>

#include "core/errors.h"

namespace gnnpart::io {
namespace {

class JsonParser {
public:
  JsonParser(std::string path, std::string text) : path_(std::move(path)), s_(std::move(text)) {}

  Json parse() {
    Json value = parse_value();
    skip();
    if (pos_ != s_.size())
      fail("trailing characters after the JSON value");
    return value;
  }

private:
  [[noreturn]] void fail(const std::string& what) { throw InputError(path_, line_at(pos_), what); }
  // Lines counted incrementally: values are visited in increasing position.
  std::uint64_t line_at(std::size_t pos) {
    for (; counted_ < pos && counted_ < s_.size(); ++counted_)
      line_ += s_[counted_] == '\n';
    return line_;
  }
  void skip() {
    while (pos_ < s_.size() && std::strchr(" \t\r\n", s_[pos_]) != nullptr)
      ++pos_;
  }
  bool eat(char c) {
    skip();
    if (pos_ < s_.size() && s_[pos_] == c) {
      ++pos_;
      return true;
    }
    return false;
  }
  void expect(char c) {
    if (!eat(c))
      fail(std::string("expected '") + c + "'");
  }
  std::string parse_string() {
    expect('"');
    std::string out;
    while (pos_ < s_.size() && s_[pos_] != '"') {
      char c = s_[pos_++];
      if (c == '\\') {
        if (pos_ >= s_.size())
          fail("unterminated string");
        c = s_[pos_++];
        switch (c) {
        case 'n':
          out += '\n';
          break;
        case 't':
          out += '\t';
          break;
        case 'r':
          out += '\r';
          break;
        case 'b':
          out += '\b';
          break;
        case 'f':
          out += '\f';
          break;
        case 'u': {
          if (pos_ + 4 > s_.size())
            fail("bad \\u escape");
          const unsigned code = std::stoul(s_.substr(pos_, 4), nullptr, 16);
          pos_ += 4;
          if (code < 0x80)
            out += static_cast<char>(code);
          else
            out += '?';
          break;
        }
        default:
          out += c;
        }
      } else {
        out += c;
      }
    }
    if (pos_ >= s_.size())
      fail("unterminated string");
    ++pos_;
    return out;
  }
  Json parse_value() {
    skip();
    if (pos_ >= s_.size())
      fail("unexpected end of input");
    Json v;
    v.line = line_at(pos_);
    const char c = s_[pos_];
    if (c == '{') {
      ++pos_;
      v.type = Json::Type::kObject;
      if (eat('}'))
        return v;
      do {
        skip();
        std::string key = parse_string();
        expect(':');
        v.fields[key] = parse_value();
      } while (eat(','));
      expect('}');
    } else if (c == '[') {
      ++pos_;
      v.type = Json::Type::kArray;
      if (eat(']'))
        return v;
      do {
        v.items.push_back(parse_value());
      } while (eat(','));
      expect(']');
    } else if (c == '"') {
      v.type = Json::Type::kString;
      v.text = parse_string();
    } else if (s_.compare(pos_, 4, "true") == 0 || s_.compare(pos_, 5, "false") == 0) {
      v.type = Json::Type::kBool;
      v.boolean = s_[pos_] == 't';
      pos_ += v.boolean ? 4 : 5;
    } else if (s_.compare(pos_, 4, "null") == 0) {
      pos_ += 4;
    } else {
      const std::size_t start = pos_;
      while (pos_ < s_.size() && std::strchr("+-0123456789.eE", s_[pos_]) != nullptr)
        ++pos_;
      if (start == pos_)
        fail(std::string("unexpected character '") + c + "'");
      v.type = Json::Type::kNumber;
      v.text = s_.substr(start, pos_ - start);
      char* end = nullptr;
      v.number = std::strtod(v.text.c_str(), &end);
      if (end != v.text.c_str() + v.text.size())
        fail("bad number " + v.text);
    }
    return v;
  }

  std::string path_;
  std::string s_;
  std::size_t pos_ = 0;
  std::size_t counted_ = 0;
  std::uint64_t line_ = 1;
};

} // namespace

Json parse_json(const std::string& path, std::string text) {
  return JsonParser(path, std::move(text)).parse();
}

std::string read_text_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::string json_quoted(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\')
      out += '\\';
    if (static_cast<unsigned char>(c) < 0x20) {
      out += fmt::format("\\u{:04x}", static_cast<unsigned>(c));
      continue;
    }
    out += c;
  }
  return out + "\"";
}

Json read_json_file(const std::string& path) {
  return parse_json(path, read_text_file(path));
}

} // namespace gnnpart::io
