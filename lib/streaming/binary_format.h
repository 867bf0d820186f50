#pragma once
// The binary stream formats live in lib/io (io/binary_stream_format.h) so that every command
// reads what `gnnpart generate` writes; lib/streaming keeps its names for them.
#include "io/binary_stream_format.h"

namespace gnnpart::streaming {

using io::BinaryHeader;
using io::BinaryKind;
using io::decode_header;
using io::encode_header;
using io::kAdjacencyStreamMagic;
using io::kBinaryHeaderBytes;
using io::kEdgeStreamMagic;

} // namespace gnnpart::streaming
