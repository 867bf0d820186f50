// dlopen for the gnnpart executable: a probe whether a library is loaded (RTLD_NOLOAD with a bare
// file name) is answered from the list of loaded objects, without the file system; every other
// call goes to glibc's dlopen unchanged. oneTBB's start (1 thread or more) probes for the OpenMP
// runtime (libiomp5.so), libtbbmalloc.so.2 and its shared thread server (libirml.so.1), none of
// them loaded then; glibc answers a probe of a name it has not loaded by looking for the file
// along its whole search path (the glibc-hwcaps, tls and platform subdirectories of every
// default directory) and, where it finds one, opening it to compare it with the loaded objects:
// 91 failed openat / newfstatat calls per run, about 2.5 us each on this VM.
// What this misses: a library loaded under another file name (a symlink to it) is reported as
// not loaded. This program loads its libraries under their sonames (the loader's DT_NEEDED,
// oneTBB's libtbbmalloc.so.2, libmetis by its soname), so its probes get glibc's answers.
// Sanitizer builds keep glibc's dlopen alone (the sanitizers intercept it themselves).
#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GNNPART_PROBE_SANITIZED 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GNNPART_PROBE_SANITIZED 1
#endif

#if defined(__linux__) && !defined(GNNPART_PROBE_SANITIZED)

#include <cstring>
#include <string_view>

#include <dlfcn.h>
#include <link.h>

namespace {

// Whether a loaded object's path ends in "/name" (or is "name").
bool loaded_as(std::string_view name) {
  struct Search {
    std::string_view name;
    bool found = false;
  } search{name};
  dl_iterate_phdr(
      [](dl_phdr_info* info, std::size_t, void* data) {
        Search& s = *static_cast<Search*>(data);
        std::string_view path = info->dlpi_name != nullptr ? info->dlpi_name : "";
        if (const std::size_t slash = path.rfind('/'); slash != std::string_view::npos)
          path.remove_prefix(slash + 1);
        s.found = path == s.name;
        return s.found ? 1 : 0;
      },
      &search);
  return search.found;
}

} // namespace

extern "C" void* dlopen(const char* file, int mode) {
  using Open = void* (*)(const char*, int);
  static const auto glibc_dlopen = reinterpret_cast<Open>(dlsym(RTLD_NEXT, "dlopen"));
  if (file != nullptr && (mode & RTLD_NOLOAD) != 0 && std::strchr(file, '/') == nullptr &&
      !loaded_as(file))
    return nullptr;
  return glibc_dlopen(file, mode);
}

#endif
