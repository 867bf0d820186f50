#pragma once
// Request/response over vertex ranges: every rank asks the owners of some global ids for a
// value they hold per owned id, and gets the answers back in the order it asked.
#include <cstdint>
#include <span>
#include <vector>

#include "distributed/comm.h"
#include "distributed/dist_graph.h"

namespace gnnpart::distributed {

// answer(local index at the owner) gives the value of an owned id. Collective.
template <typename T, typename Answer>
std::vector<T> fetch(const Comm& comm, std::span<const std::uint64_t> vtxdist,
                     std::span<const NodeID> ids, Answer&& answer) {
  const std::size_t p = static_cast<std::size_t>(comm.size);
  std::vector<std::uint64_t> offsets(p + 1, 0);
  std::vector<int> owner(ids.size());
  for (std::size_t i = 0; i < ids.size(); ++i) {
    owner[i] = owner_of(vtxdist, ids[i]);
    ++offsets[static_cast<std::size_t>(owner[i]) + 1];
  }
  for (std::size_t d = 0; d < p; ++d)
    offsets[d + 1] += offsets[d];
  std::vector<NodeID> asked(ids.size());
  std::vector<std::size_t> position(ids.size());
  {
    std::vector<std::uint64_t> fill(offsets.begin(), offsets.end() - 1);
    for (std::size_t i = 0; i < ids.size(); ++i) {
      const std::size_t at = fill[static_cast<std::size_t>(owner[i])]++;
      asked[at] = ids[i];
      position[at] = i;
    }
  }
  std::vector<std::uint64_t> recv_offsets;
  const std::vector<NodeID> requests = exchange<NodeID>(comm, asked, offsets, &recv_offsets);
  std::vector<T> answers(requests.size());
  const NodeID first = static_cast<NodeID>(vtxdist[comm.rank]);
  for (std::size_t i = 0; i < requests.size(); ++i)
    answers[i] = answer(requests[i] - first);
  const std::vector<T> replies = exchange<T>(comm, answers, recv_offsets);
  std::vector<T> out(ids.size());
  for (std::size_t at = 0; at < replies.size(); ++at)
    out[position[at]] = replies[at];
  return out;
}

// Sorted distinct values of a list.
inline std::vector<NodeID> sorted_unique(std::vector<NodeID> values) {
  std::sort(values.begin(), values.end());
  values.erase(std::unique(values.begin(), values.end()), values.end());
  return values;
}

} // namespace gnnpart::distributed
