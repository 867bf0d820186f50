// app/library_loading.cc, compiled into this test binary as into gnnpart: dlopen answers an
// RTLD_NOLOAD probe of a bare name from the loaded objects, declines libtbbmalloc unless it is
// loaded already, and passes every other call on to glibc.
#include <dlfcn.h>

#include <gtest/gtest.h>

namespace {

#if !defined(__SANITIZE_ADDRESS__)

TEST(LibraryLoading, ProbeOfALoadedLibraryGetsItsHandle) {
  void* probed = dlopen("libc.so.6", RTLD_LAZY | RTLD_NOLOAD);
  ASSERT_NE(probed, nullptr);
  void* opened = dlopen("libc.so.6", RTLD_LAZY);
  EXPECT_EQ(probed, opened);
  dlclose(opened);
  dlclose(probed);
}

TEST(LibraryLoading, ProbeOfAnUnloadedLibraryGetsNull) {
  EXPECT_EQ(dlopen("libgnnpart-not-a-library.so.1", RTLD_LAZY | RTLD_NOLOAD), nullptr);
}

// libdl.so.2 (glibc's compatibility stub, which nothing here links): loading goes to glibc, and
// once loaded a probe of the same name finds it; a failed load keeps glibc's message.
TEST(LibraryLoading, LoadsPassThrough) {
  void* opened = dlopen("libdl.so.2", RTLD_NOW);
  ASSERT_NE(opened, nullptr) << dlerror();
  void* probed = dlopen("libdl.so.2", RTLD_NOW | RTLD_NOLOAD);
  EXPECT_EQ(probed, opened);
  if (probed != nullptr)
    dlclose(probed);
  dlclose(opened);
  EXPECT_EQ(dlopen("libgnnpart-not-a-library.so.1", RTLD_NOW), nullptr);
  EXPECT_NE(dlerror(), nullptr);
}

// oneTBB asks for its allocator by name and by path; neither loads it unless it is loaded.
TEST(LibraryLoading, TbbMallocIsDeclinedUnlessLoaded) {
  if (dlopen("libtbbmalloc.so.2", RTLD_LAZY | RTLD_NOLOAD) != nullptr)
    GTEST_SKIP() << "libtbbmalloc is loaded in this process (preloaded)";
  EXPECT_EQ(dlopen("libtbbmalloc.so.2", RTLD_NOW), nullptr);
  EXPECT_EQ(dlopen("/usr/lib/x86_64-linux-gnu/libtbbmalloc.so.2", RTLD_NOW), nullptr);
  EXPECT_EQ(dlopen("libtbbmalloc.so.2", RTLD_LAZY | RTLD_NOLOAD), nullptr);
}

#endif

} // namespace
