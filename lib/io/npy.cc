#include "io/npy.h"

#include <bit>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <charconv>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <limits>
#include <type_traits>
#include <utility>

#include "core/errors.h"

namespace gnnpart::io {
namespace {

static_assert(std::endian::native == std::endian::little, "npy I/O assumes a little-endian host");

const char kMagic[] = "\x93NUMPY";

const char* descr_of(NpyType type) {
  switch (type) {
  case NpyType::kInt32:
    return "<i4";
  case NpyType::kInt64:
    return "<i8";
  case NpyType::kFloat32:
    return "<f4";
  case NpyType::kFloat64:
    return "<f8";
  }
  return "";
}

std::size_t width_of(NpyType type) {
  return type == NpyType::kInt32 || type == NpyType::kFloat32 ? 4 : 8;
}

template <typename T>
void write_typed(const std::string& path, std::span<const T> data, std::vector<std::uint64_t> shape,
                 NpyType type) {
  if (shape.empty())
    shape.push_back(data.size());
  std::uint64_t product = 1;
  for (std::uint64_t d : shape)
    product *= d;
  if (product != data.size()) {
    throw InvalidParameter(path + ": npy shape does not match " + std::to_string(data.size()) +
                           " elements");
  }
  std::string dict =
      std::string("{'descr': '") + descr_of(type) + "', 'fortran_order': False, 'shape': (";
  for (std::size_t i = 0; i < shape.size(); ++i) {
    dict += std::to_string(shape[i]);
    if (shape.size() == 1 || i + 1 < shape.size())
      dict += ",";
    if (i + 1 < shape.size())
      dict += " ";
  }
  dict += "), }";
  // Pad with spaces so that magic + version + length + dict + '\n' is a multiple of 64.
  const std::size_t unpadded = 10 + dict.size() + 1;
  dict.append((64 - unpadded % 64) % 64, ' ');
  dict += '\n';
  if (dict.size() > 65535)
    throw InvalidParameter(path + ": npy header too long");

  const std::string tmp = path + ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    if (!out)
      throw SystemError(tmp + ": cannot open for writing: " + std::strerror(errno));
    out.write(kMagic, 6);
    const char version[2] = {1, 0};
    out.write(version, 2);
    const std::uint16_t len = static_cast<std::uint16_t>(dict.size());
    out.write(reinterpret_cast<const char*>(&len), 2);
    out.write(dict.data(), static_cast<std::streamsize>(dict.size()));
    out.write(reinterpret_cast<const char*>(data.data()),
              static_cast<std::streamsize>(data.size_bytes()));
    out.close();
    if (!out)
      throw SystemError(tmp + ": write failed");
  }
  std::error_code ec;
  std::filesystem::rename(tmp, path, ec);
  if (ec)
    throw SystemError(path + ": cannot rename into place: " + ec.message());
}

// Value of key in the header dict text, up to the next ',' at depth 0 (or '}').
std::string dict_value(const std::string& path, const std::string& dict, const std::string& key) {
  const std::string needle = "'" + key + "'";
  auto pos = dict.find(needle);
  if (pos == std::string::npos)
    throw InputError(path, 0, "npy header lacks '" + key + "'");
  pos = dict.find(':', pos + needle.size());
  if (pos == std::string::npos)
    throw InputError(path, 0, "npy header malformed");
  ++pos;
  int depth = 0;
  std::string value;
  for (; pos < dict.size(); ++pos) {
    const char c = dict[pos];
    if (c == '(')
      ++depth;
    if (c == ')')
      --depth;
    if (depth == 0 && (c == ',' || c == '}'))
      break;
    value += c;
  }
  const auto first = value.find_first_not_of(" ");
  const auto last = value.find_last_not_of(" ");
  return first == std::string::npos ? "" : value.substr(first, last - first + 1);
}

struct RawArray {
  NpyHeader header;
  std::vector<char> bytes;
};

RawArray read_raw(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in)
    throw InputError(path, 0, std::string("cannot open: ") + std::strerror(errno));
  char magic[8];
  if (!in.read(magic, 8) || std::memcmp(magic, kMagic, 6) != 0) {
    throw InputError(path, 0, "not a NumPy .npy file (bad magic)");
  }
  std::uint32_t header_len = 0;
  if (magic[6] == 1) {
    std::uint16_t len16 = 0;
    in.read(reinterpret_cast<char*>(&len16), 2);
    header_len = len16;
  } else if (magic[6] == 2 || magic[6] == 3) {
    in.read(reinterpret_cast<char*>(&header_len), 4);
  } else {
    throw InputError(path, 0, "unsupported .npy version " + std::to_string(int(magic[6])));
  }
  // Sizes from the file are checked against what it holds before anything is allocated.
  const std::streamoff header_end = in.tellg();
  in.seekg(0, std::ios::end);
  const std::uint64_t left = in && header_end >= 0
                                 ? static_cast<std::uint64_t>(in.tellg() - header_end)
                                 : 0;
  in.seekg(header_end);
  if (header_len > left)
    throw InputError(path, 0, "truncated npy header");
  std::string dict(header_len, '\0');
  if (!in || !in.read(dict.data(), header_len))
    throw InputError(path, 0, "truncated npy header");

  RawArray raw;
  const std::string descr = dict_value(path, dict, "descr");
  if (descr == "'<i4'")
    raw.header.type = NpyType::kInt32;
  else if (descr == "'<i8'")
    raw.header.type = NpyType::kInt64;
  else if (descr == "'<f4'")
    raw.header.type = NpyType::kFloat32;
  else if (descr == "'<f8'")
    raw.header.type = NpyType::kFloat64;
  else
    throw InputError(path, 0, "unsupported npy dtype " + descr + " (want <i4 <i8 <f4 <f8)");
  if (dict_value(path, dict, "fortran_order") != "False") {
    throw InputError(path, 0, "Fortran-order npy arrays are not supported");
  }
  const std::string shape = dict_value(path, dict, "shape");
  if (shape.size() < 2 || shape.front() != '(' || shape.back() != ')') {
    throw InputError(path, 0, "npy shape malformed: " + shape);
  }
  std::string number;
  for (std::size_t i = 1; i < shape.size(); ++i) {
    const char c = shape[i];
    if (c >= '0' && c <= '9') {
      number += c;
    } else if (c == ',' || c == ')') {
      if (!number.empty()) {
        std::uint64_t extent = 0;
        const auto [end, ec] = std::from_chars(number.data(), number.data() + number.size(), extent);
        if (ec != std::errc() || (extent != 0 && raw.header.size() > left / extent))
          throw InputError(path, 0, "npy shape " + shape + " is larger than the file");
        raw.header.shape.push_back(extent);
      }
      number.clear();
    } else if (c != ' ' && c != 'L') {
      throw InputError(path, 0, "npy shape malformed: " + shape);
    }
  }
  const std::uint64_t bytes = raw.header.size() * width_of(raw.header.type);
  if (bytes > left - header_len)
    throw InputError(path, 0, "truncated npy data: expected " + std::to_string(bytes) + " bytes");
  raw.bytes.resize(bytes);
  if (!in.read(raw.bytes.data(), static_cast<std::streamsize>(bytes))) {
    throw InputError(path, 0, "truncated npy data: expected " + std::to_string(bytes) + " bytes");
  }
  return raw;
}

template <typename Source, typename T>
void convert(const std::string& path, const std::vector<char>& bytes, std::vector<T>& out) {
  const std::size_t count = bytes.size() / sizeof(Source);
  out.resize(count);
  for (std::size_t i = 0; i < count; ++i) {
    Source value;
    std::memcpy(&value, bytes.data() + i * sizeof(Source), sizeof(Source));
    if constexpr (std::is_integral_v<T>) {
      if constexpr (std::is_floating_point_v<Source>) {
        throw InputError(path, 0, "expected an integer array, found floating point");
      } else {
        if (!std::in_range<T>(value)) {
          throw InputError(path, 0,
                           "value " + std::to_string(value) + " at index " + std::to_string(i) +
                               " out of range");
        }
        out[i] = static_cast<T>(value);
      }
    } else {
      out[i] = static_cast<T>(value);
    }
  }
}

template <typename T> std::vector<T> read_typed(const std::string& path, NpyHeader* header) {
  RawArray raw = read_raw(path);
  std::vector<T> out;
  switch (raw.header.type) {
  case NpyType::kInt32:
    convert<std::int32_t>(path, raw.bytes, out);
    break;
  case NpyType::kInt64:
    convert<std::int64_t>(path, raw.bytes, out);
    break;
  case NpyType::kFloat32:
    convert<float>(path, raw.bytes, out);
    break;
  case NpyType::kFloat64:
    convert<double>(path, raw.bytes, out);
    break;
  }
  if (header != nullptr)
    *header = std::move(raw.header);
  return out;
}

template <typename T> void write_ids(const std::string& path, std::span<const T> data) {
  bool fits = true;
  for (T v : data)
    fits = fits && v <= static_cast<T>(std::numeric_limits<std::int32_t>::max());
  if (fits) {
    std::vector<std::int32_t> narrow(data.begin(), data.end());
    write_npy(path, std::span<const std::int32_t>(narrow));
  } else {
    std::vector<std::int64_t> wide(data.size());
    for (std::size_t i = 0; i < data.size(); ++i) {
      if (!std::in_range<std::int64_t>(data[i])) {
        throw InvalidParameter(path + ": id does not fit int64");
      }
      wide[i] = static_cast<std::int64_t>(data[i]);
    }
    write_npy(path, std::span<const std::int64_t>(wide));
  }
}

} // namespace

std::uint64_t NpyHeader::size() const {
  std::uint64_t product = 1;
  for (std::uint64_t d : shape)
    product *= d;
  return product;
}

void write_npy(const std::string& path, std::span<const std::int32_t> data,
               std::vector<std::uint64_t> shape) {
  write_typed(path, data, std::move(shape), NpyType::kInt32);
}
void write_npy(const std::string& path, std::span<const std::int64_t> data,
               std::vector<std::uint64_t> shape) {
  write_typed(path, data, std::move(shape), NpyType::kInt64);
}
void write_npy(const std::string& path, std::span<const float> data,
               std::vector<std::uint64_t> shape) {
  write_typed(path, data, std::move(shape), NpyType::kFloat32);
}
void write_npy(const std::string& path, std::span<const double> data,
               std::vector<std::uint64_t> shape) {
  write_typed(path, data, std::move(shape), NpyType::kFloat64);
}
void write_npy_ids(const std::string& path, std::span<const std::uint32_t> data) {
  write_ids(path, data);
}
void write_npy_ids(const std::string& path, std::span<const std::uint64_t> data) {
  write_ids(path, data);
}

std::vector<std::int64_t> read_npy_int64(const std::string& path, NpyHeader* header) {
  return read_typed<std::int64_t>(path, header);
}
std::vector<std::uint32_t> read_npy_uint32(const std::string& path, NpyHeader* header) {
  return read_typed<std::uint32_t>(path, header);
}
std::vector<std::uint64_t> read_npy_uint64(const std::string& path, NpyHeader* header) {
  return read_typed<std::uint64_t>(path, header);
}
std::vector<float> read_npy_float32(const std::string& path, NpyHeader* header) {
  return read_typed<float>(path, header);
}
std::vector<double> read_npy_float64(const std::string& path, NpyHeader* header) {
  return read_typed<double>(path, header);
}

} // namespace gnnpart::io
