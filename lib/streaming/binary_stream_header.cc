#include "streaming/binary_stream_header.h"

#include <string>

#include "core/errors.h"

namespace gnnpart::streaming {

BinaryHeader read_binary_stream_header(FileSource& source, BinaryKind expected) {
  const std::string& path = source.path();
  if (source.compressed())
    throw InputError(path, 0, "binary streams cannot be gzipped");
  char bytes[kBinaryHeaderBytes];
  const std::size_t got = source.read(bytes, kBinaryHeaderBytes);
  const BinaryHeader header = decode_header(bytes, got, path);
  if (header.kind != expected) {
    const char* name = expected == BinaryKind::kEdgeStream ? "edge" : "adjacency";
    throw InputError(path, 0, std::string("not a binary ") + name + " stream (bad magic)");
  }
  return header;
}

} // namespace gnnpart::streaming
