#pragma once
// The entry of every whole-file text reader: the file read into memory, then parsed with the
// caller's thread count; an empty file is an InputError at line 0.
#include <string>

#include "core/errors.h"
#include "io/edge_list_grammar.h"
#include "io/input_buffer.h"
#include "io/text_parsing.h"

namespace gnnpart::io::detail {

// parse(const InputBuffer&) on the bytes of path, with `threads` threads (with_threads).
template <typename Parse>
auto parse_whole_file(const std::string& path, int threads, Parse&& parse) {
  return with_threads(threads, [&] {
    const InputBuffer in(path);
    if (in.empty())
      throw InputError(path, 0, grammar::kEmptyInputMessage);
    return parse(in);
  });
}

} // namespace gnnpart::io::detail
