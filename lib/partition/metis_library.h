#pragma once
// The METIS entry points the backend calls, taken from libmetis when a run first needs them.
// libmetis is opened with dlopen instead of being a shared library the loader maps at every
// start: few runs use the METIS backend, and each library loaded at start costs every run of
// the CLI (docs/graph.md, "The process's fixed cost"). The symbols come from libmetis's own
// handle, so a program that also links the METIS shim (which defines METIS_PartGraphKway
// itself) still reaches METIS.
#include <metis.h>

namespace gnnpart {

struct MetisLibrary {
  decltype(&METIS_SetDefaultOptions) set_default_options = nullptr;
  decltype(&METIS_PartGraphKway) part_graph_kway = nullptr;
};

// Loads libmetis on the first call (thread-safe; a failed load is retried by the next call).
// Throws SystemError naming the library and the loader's message when it cannot be loaded or
// lacks an entry point.
const MetisLibrary& metis_library();

} // namespace gnnpart
