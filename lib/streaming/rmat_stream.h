#pragma once
// R-MAT straight to a file in bounded memory: the same graph, byte for byte, as
// generate_graph + write_generated (same seed, any thread count), without holding its edges.
// The in-memory generator draws rounds of missing edges and sorts and deduplicates all edges
// after each round; here the edges of every round go to key-range buckets in temporary files
// (keys (lo << 32) | hi, already relabelled when options.relabel is set: the permutation is a
// bijection of the edges, so it changes neither the duplicates nor the counts), and after a
// round each bucket that received edges is loaded alone, sorted, deduplicated and written back,
// so a round ends with the same number of distinct edges as in memory and the next round draws
// the same edges. The buckets are finally written in key order: the sorted edge list of
// generate_graph. Memory: one bucket and its sort scratch (about memory_bytes), the
// permutation with --relabel (4 B per vertex), the draws of a group of chunks and the buckets'
// write buffers.
#include <cstdint>
#include <string>
#include <vector>

#include "streaming/generator.h"

namespace gnnpart::streaming {

struct StreamedGeneration {
  EdgeID m = 0;
  std::uint32_t rounds = 0;
  std::uint32_t buckets = 0;
  std::uint64_t draws = 0; // edges drawn in all rounds (m plus the duplicates)
};

// R-MAT, optionally relabelled; not with a hub or shuffled (those need the whole edge list).
bool can_stream_generation(const GeneratorOptions& options);

// Generates and writes the graph (formats as write_generated). memory_bytes bounds the bucket
// being sorted (keys and radix scratch); temp_dir holds the buckets (empty: $TMPDIR or /tmp).
// Throws InvalidParameter for options that cannot be streamed or are invalid.
StreamedGeneration generate_to_file(const GeneratorOptions& options, const std::string& path,
                                    GeneratedFormat format,
                                    const std::vector<std::string>& comments,
                                    std::size_t memory_bytes, const std::string& temp_dir);

} // namespace gnnpart::streaming
