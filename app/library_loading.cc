// dlopen for the gnnpart executable, for what oneTBB loads at its start (any thread count); every
// other call goes to glibc's dlopen unchanged. Sanitizer builds keep glibc's dlopen alone (the
// sanitizers intercept it themselves).
//
// - A probe whether a library is loaded (RTLD_NOLOAD with a bare file name) is answered from the
//   list of loaded objects, without the file system. libtbb probes for the OpenMP runtime
//   (libiomp5.so), libtbbmalloc.so.2 and its shared thread server (libirml.so.1), none of them
//   loaded then; glibc answers a probe of a name it has not loaded by looking for the file along
//   its whole search path (the glibc-hwcaps, tls and platform subdirectories of every default
//   directory) and, where it finds one, opening it to compare it with the loaded objects: 91
//   failed openat / newfstatat calls per run, about 2.5 us each on this VM. What this misses: a
//   library loaded under another file name (a symlink to it) reads as not loaded; this program
//   loads its libraries by their sonames.
// - libtbbmalloc is not loaded: oneTBB then takes its own small allocations (tasks, the
//   storage of enumerable_thread_specific) from malloc, as it does wherever libtbbmalloc is not
//   installed. Loading it cost an open, five mappings (2 MB and 4 x 1 MB reserved), its
//   relocation, reads of /proc/meminfo and the huge-page settings and some 15-20 page faults: 3%
//   of a small run's CPU time (docs/graph.md, session 17). Where it is loaded already (a
//   preloaded libtbbmalloc_proxy), oneTBB gets it, so that one allocator serves the process.
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GNNPART_LOADING_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GNNPART_LOADING_SANITIZED 1
#endif

#if defined(__linux__) && !defined(GNNPART_LOADING_SANITIZED)

#include <cstring>
#include <string_view>

#include <dlfcn.h>
#include <link.h>

namespace {

constexpr std::string_view kTbbMalloc = "libtbbmalloc.so.2";

std::string_view file_name(std::string_view path) {
  if (const std::size_t slash = path.rfind('/'); slash != std::string_view::npos)
    path.remove_prefix(slash + 1);
  return path;
}

// Whether a loaded object's file name (its path's last part) is `name`.
bool loaded_as(std::string_view name) {
  struct Search {
    std::string_view name;
    bool found = false;
  } search{name};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        Search& s = *static_cast<Search*>(data);
        s.found = file_name(info->dlpi_name != nullptr ? info->dlpi_name : "") == s.name;
        return s.found ? 1 : 0;
      },
      &search);
  return search.found;
}

} // namespace

extern "C" void* dlopen(const char* file, int mode) {
  using Open = void* (*)(const char*, int);
  static const auto glibc_dlopen = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"));
  if (file != nullptr) {
    const bool probe = (mode & RTLD_NOLOAD) != 0 && std::strchr(file, '/') == nullptr;
    if ((probe || file_name(file) == kTbbMalloc) && !loaded_as(file_name(file)))
      return nullptr;
  }
  return glibc_dlopen(file, mode);
}

#endif
