#pragma once
// NumPy .npy files (format 1.0 written; 1.0 and 2.0 read): little-endian int32, int64, float32
// or float64, C order, so Python trainers load the layout with numpy.load.
#include <cstdint>
#include <span>
#include <string>
#include <vector>

namespace gnnpart::io {

enum class NpyType { kInt32, kInt64, kFloat32, kFloat64 };

// Shape of the array; empty shape = one-dimensional of data.size() elements. The product of the
// shape must equal data.size() (InvalidParameter otherwise). Writes PATH.tmp, then renames.
void write_npy(const std::string& path, std::span<const std::int32_t> data,
               std::vector<std::uint64_t> shape = {});
void write_npy(const std::string& path, std::span<const std::int64_t> data,
               std::vector<std::uint64_t> shape = {});
void write_npy(const std::string& path, std::span<const float> data,
               std::vector<std::uint64_t> shape = {});
void write_npy(const std::string& path, std::span<const double> data,
               std::vector<std::uint64_t> shape = {});
// Unsigned ids: int32 when every value fits, int64 otherwise.
void write_npy_ids(const std::string& path, std::span<const std::uint32_t> data);
void write_npy_ids(const std::string& path, std::span<const std::uint64_t> data);

struct NpyHeader {
  NpyType type = NpyType::kInt32;
  std::vector<std::uint64_t> shape;
  std::uint64_t size() const; // product of the shape
};

// Reads the array, converting the stored type to T. Integers convert to integer types with a
// range check, any number to floating types; a float array read as integers is an InputError,
// as are a bad magic, big-endian or Fortran-order data and a truncated file.
std::vector<std::int64_t> read_npy_int64(const std::string& path, NpyHeader* header = nullptr);
std::vector<std::uint32_t> read_npy_uint32(const std::string& path, NpyHeader* header = nullptr);
std::vector<std::uint64_t> read_npy_uint64(const std::string& path, NpyHeader* header = nullptr);
std::vector<float> read_npy_float32(const std::string& path, NpyHeader* header = nullptr);
std::vector<double> read_npy_float64(const std::string& path, NpyHeader* header = nullptr);

} // namespace gnnpart::io
