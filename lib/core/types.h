#pragma once
// The id and weight widths of the whole project, declared once.
#include <cstdint>
#include <limits>

namespace gnnpart {

#ifdef GNNPART_64BIT_NODE_IDS
using NodeID = std::uint64_t;
#else
using NodeID = std::uint32_t;
#endif
using EdgeID = std::uint64_t;
using NetID = NodeID;  // hyperedges are indexed like vertices
using BlockID = std::uint32_t;
using Weight = std::int64_t;

inline constexpr NodeID kInvalidNodeID = std::numeric_limits<NodeID>::max();
inline constexpr EdgeID kInvalidEdgeID = std::numeric_limits<EdgeID>::max();
inline constexpr BlockID kInvalidBlockID = std::numeric_limits<BlockID>::max();
// Largest usable vertex id: the sentinel itself is reserved.
inline constexpr std::uint64_t kMaxNodeID = static_cast<std::uint64_t>(kInvalidNodeID) - 1;

// Told to users when an input needs more than 32-bit vertex ids.
inline constexpr const char* kWideIdHint =
    "rebuild with -DGNNPART_64BIT_NODE_IDS=ON for 64-bit vertex ids";

}  // namespace gnnpart
