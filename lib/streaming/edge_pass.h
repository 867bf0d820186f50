#pragma once
// One pass over an edge stream: body(batch) for every batch, with the pass reported on the
// progress meter (if any). Returns the edges seen.
#include <cstdint>
#include <string>

#include "streaming/edge_stream.h"
#include "streaming/progress.h"

namespace gnnpart::streaming {

template <typename Body>
std::uint64_t for_each_edge_batch(EdgeStream& stream, ProgressMeter* progress,
                                  const std::string& label, Body&& body) {
  if (progress != nullptr)
    progress->begin(label, stream.progress_total(), stream.progress_in_bytes());
  EdgeBatch batch;
  std::uint64_t done = 0;
  stream.begin_pass();
  while (stream.next_batch(batch)) {
    body(static_cast<const EdgeBatch&>(batch));
    done += batch.size();
    if (progress != nullptr)
      progress->update(stream.progress_done(), done);
  }
  stream.end_pass();
  if (progress != nullptr)
    progress->end(stream.progress_done(), done);
  return done;
}

} // namespace gnnpart::streaming
