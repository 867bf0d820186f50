#include "io/binary_stream_format.h"

#include <cstring>

#include "core/errors.h"

namespace gnnpart::io {
namespace {

void put_u32(char* out, std::uint32_t value) {
  for (int i = 0; i < 4; ++i)
    out[i] = static_cast<char>((value >> (8 * i)) & 0xff);
}
void put_u64(char* out, std::uint64_t value) {
  for (int i = 0; i < 8; ++i)
    out[i] = static_cast<char>((value >> (8 * i)) & 0xff);
}
std::uint32_t get_u32(const char* in) {
  std::uint32_t value = 0;
  for (int i = 3; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(in[i]);
  return value;
}
std::uint64_t get_u64(const char* in) {
  std::uint64_t value = 0;
  for (int i = 7; i >= 0; --i)
    value = (value << 8) | static_cast<unsigned char>(in[i]);
  return value;
}

} // namespace

void encode_header(const BinaryHeader& header, char* out) {
  const std::string_view magic =
      header.kind == BinaryKind::kEdgeStream ? kEdgeStreamMagic : kAdjacencyStreamMagic;
  std::memcpy(out, magic.data(), 8);
  put_u32(out + 8, header.id_bytes);
  put_u32(out + 12, 0);
  put_u64(out + 16, header.n);
  put_u64(out + 24, header.m);
  put_u64(out + 32, header.entries);
}

BinaryHeader decode_header(const char* bytes, std::size_t size, const std::string& path) {
  BinaryHeader header;
  if (size < kBinaryHeaderBytes)
    return header;
  const std::string_view magic(bytes, 8);
  if (magic == kEdgeStreamMagic) {
    header.kind = BinaryKind::kEdgeStream;
  } else if (magic == kAdjacencyStreamMagic) {
    header.kind = BinaryKind::kAdjacencyStream;
  } else {
    return header;
  }
  header.id_bytes = get_u32(bytes + 8);
  header.n = get_u64(bytes + 16);
  header.m = get_u64(bytes + 24);
  header.entries = get_u64(bytes + 32);
  if (header.id_bytes != sizeof(NodeID)) {
    throw InputError(path, 0,
                     "binary stream stores " + std::to_string(header.id_bytes) +
                         "-byte vertex ids, this build reads " + std::to_string(sizeof(NodeID)));
  }
  if (header.n > kMaxNodeID + 1) {
    throw InputError(path, 0, std::string("too many vertices; ") + kWideIdHint);
  }
  return header;
}

} // namespace gnnpart::io
