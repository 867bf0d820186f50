#include "partition/metis_library.h"

#include <dlfcn.h>

#include <string>

#include "core/errors.h"

// The name the loader knows libmetis by, from the build (CMakeLists.txt: its soname).
#ifndef GNNPART_METIS_SONAME
#define GNNPART_METIS_SONAME "libmetis.so.5"
#endif

namespace gnnpart {
namespace {

std::string loader_message() {
  const char* message = ::dlerror();
  return message != nullptr ? message : "unknown error";
}

template <typename Function> Function entry_point(void* handle, const char* name) {
  void* symbol = ::dlsym(handle, name);
  if (symbol == nullptr)
    throw SystemError(std::string("the METIS backend: ") + GNNPART_METIS_SONAME + " lacks " + name +
                      ": " + loader_message());
  return reinterpret_cast<Function>(symbol);
}

MetisLibrary load_metis() {
  // Local scope: METIS's symbols stay out of the process's global namespace. Never closed.
  void* handle = ::dlopen(GNNPART_METIS_SONAME, RTLD_NOW | RTLD_LOCAL);
  if (handle == nullptr)
    throw SystemError(std::string("the METIS backend cannot load ") + GNNPART_METIS_SONAME + ": " +
                      loader_message());
  MetisLibrary library;
  library.set_default_options =
      entry_point<decltype(library.set_default_options)>(handle, "METIS_SetDefaultOptions");
  library.part_graph_kway =
      entry_point<decltype(library.part_graph_kway)>(handle, "METIS_PartGraphKway");
  return library;
}

} // namespace

const MetisLibrary& metis_library() {
  static const MetisLibrary library = load_metis();
  return library;
}

} // namespace gnnpart
