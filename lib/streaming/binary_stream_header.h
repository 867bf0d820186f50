#pragma once
// The header check both binary stream readers (edge and adjacency) start with.
#include "streaming/binary_format.h"
#include "streaming/file_source.h"

namespace gnnpart::streaming {

// Reads and decodes the header at the start of source, which must hold a binary stream of the
// expected kind. Throws InputError (FILE, line 0) for a gzipped file, an unsupported id width or
// another magic: "not a binary edge stream (bad magic)" / "not a binary adjacency stream ...".
BinaryHeader read_binary_stream_header(FileSource& source, BinaryKind expected);

} // namespace gnnpart::streaming
