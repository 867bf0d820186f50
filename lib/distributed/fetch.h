#pragma once
// Request/response over vertex ranges: every rank asks the owners of some global ids for a
// value they hold per owned id, and gets the answers back in the order it asked.
#include <algorithm>
#include <cstdint>
#include <span>
#include <vector>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// answer(local index at the owner) gives the value of an owned id. Collective. Besides the
// result, at most about three arrays of ids.size() (or of the requests received) are held at a
// time: owners are found again instead of stored, and the placement of the replies is
// recomputed by the same counting pass that placed the requests.
template <typename T, typename Answer>
std::vector<T> fetch(const Comm& comm, std::span<const std::uint64_t> vtxdist,
                     std::span<const NodeID> ids, Answer&& answer) {
  const std::size_t p = static_cast<std::size_t>(comm.size);
  std::vector<std::uint64_t> offsets(p + 1, 0);
  for (const NodeID id : ids)
    ++offsets[static_cast<std::size_t>(owner_of(vtxdist, id)) + 1];
  for (std::size_t d = 0; d < p; ++d)
    offsets[d + 1] += offsets[d];
  std::vector<std::uint64_t> fill(offsets.begin(), offsets.end() - 1);
  std::vector<std::uint64_t> recv_offsets;
  std::vector<T> answers;
  {
    std::vector<NodeID> asked(ids.size());
    for (const NodeID id : ids)
      asked[fill[static_cast<std::size_t>(owner_of(vtxdist, id))]++] = id;
    std::vector<NodeID> requests = exchange<NodeID>(comm, asked, offsets, &recv_offsets);
    std::vector<NodeID>().swap(asked);
    answers.resize(requests.size());
    const NodeID first = static_cast<NodeID>(vtxdist[comm.rank]);
    for (std::size_t i = 0; i < requests.size(); ++i)
      answers[i] = answer(requests[i] - first);
  }
  const std::vector<T> replies = exchange<T>(comm, answers, recv_offsets);
  std::vector<T>().swap(answers);
  std::vector<T> out(ids.size());
  std::copy(offsets.begin(), offsets.end() - 1, fill.begin());
  for (std::size_t i = 0; i < ids.size(); ++i)
    out[i] = replies[fill[static_cast<std::size_t>(owner_of(vtxdist, ids[i]))]++];
  return out;
}

// Sorted distinct values of a list.
inline std::vector<NodeID> sorted_unique(std::vector<NodeID> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

} // namespace gnnpart::distributed
