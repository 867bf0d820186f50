// app/loaded_library_probe.cc, compiled into this test binary as into gnnpart: dlopen answers
// an RTLD_NOLOAD probe of a bare name from the loaded objects and passes every other call on.
#include <dlfcn.h>

#include <gtest/gtest.h>

namespace {

#if !defined(__SANITIZE_ADDRESS__)

TEST(LoadedLibraryProbe, ProbeOfALoadedLibraryGetsItsHandle) {
  void* probed = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(probed, nullptr);
  void* opened = dlopen("libc.so.6", RTLD_LAZY);
  EXPECT_EQ(probed, opened);
  dlclose(opened);
  dlclose(probed);
}

TEST(LoadedLibraryProbe, ProbeOfAnUnloadedLibraryGetsNull) {
  EXPECT_EQ(dlopen("libgnnpart-not-a-library.so.1", RTLD_LAZY | RTLD_NOLOAD), nullptr);
}

// oneTBB's allocator library: loading goes to glibc (it finds the file), and once loaded a probe
// of the same name finds it.
TEST(LoadedLibraryProbe, LoadsPassThrough) {
  void* opened = dlopen("libtbbmalloc.so.2", RTLD_NOW);
  ASSERT_NE(opened, nullptr) << dlerror();
  void* probed = dlopen("libtbbmalloc.so.2", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_EQ(probed, opened);
  if (probed != nullptr)
    dlclose(probed);
  dlclose(opened);
  EXPECT_EQ(dlopen("libgnnpart-not-a-library.so.1", RTLD_NOW), nullptr);
  EXPECT_NE(dlerror(), nullptr); // glibc's failure, with its message
}

#endif

} // namespace
