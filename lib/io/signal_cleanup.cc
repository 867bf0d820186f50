#include "io/signal_cleanup.h"

#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdint>
#include <cstring>

#include "core/random.h"

namespace gnnpart::io {

namespace {

// Room for every scratch file one process holds at once: `generate rmat` keeps up to 4096 bucket
// files (rmat_stream.cc, kMaxBuckets), plus outputs and the sorted runs of an external sort.
// The table is static (8 MiB of paths), but only the slots in use are ever written.
constexpr int kSlots = 8192;
constexpr std::size_t kMaxPath = 1024;

enum SlotState : int { kFree = 0, kWriting = 1, kReady = 2 };

// Static storage: the handler never reads freed memory. A slot is read only in state kReady;
// it is written only between a free -> writing claim and the store of kReady.
std::array<std::atomic<int>, kSlots> g_state{};
std::array<std::array<char, kMaxPath>, kSlots> g_path{};
// Set by the handler before it reads the slots: from then on nothing is registered again.
std::atomic<bool> g_removing{false};

// Unlinks every registered path (async-signal-safe: atomics and unlink only).
void remove_registered_paths() noexcept {
  g_removing.store(true);
  for (int slot = 0; slot < kSlots; ++slot)
    if (g_state[slot].load() == kReady)
      ::unlink(g_path[slot].data());
}

void on_signal(int signal_number) {
  remove_registered_paths();
  ::signal(signal_number, SIG_DFL);
  ::raise(signal_number);
}

// A registration: a slot of the fixed table (no allocation in the handler); -1 when the path
// is too long or the table is full (then only the owner's destructor removes the file).
int register_cleanup_path(const std::string& path) noexcept {
  if (path.empty() || path.size() >= kMaxPath || g_removing.load())
    return -1;
  for (int slot = 0; slot < kSlots; ++slot) {
    int expected = kFree;
    if (!g_state[slot].compare_exchange_strong(expected, kWriting))
      continue;
    std::memcpy(g_path[slot].data(), path.c_str(), path.size() + 1);
    g_state[slot].store(kReady);
    return slot;
  }
  return -1;
}

} // namespace

UniqueFile create_unique_file(const std::string& prefix, const void* salt) {
  // Names mixed from the clock, the process and the caller's address.
  std::uint64_t seed =
      static_cast<std::uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
      (static_cast<std::uint64_t>(::getpid()) << 32) ^ reinterpret_cast<std::uintptr_t>(salt);
  static constexpr char kAlphabet[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  UniqueFile file;
  for (int attempt = 0; attempt < 100; ++attempt) {
    seed = splitmix64(seed + static_cast<std::uint64_t>(attempt));
    std::string suffix(6, 'x');
    std::uint64_t bits = seed;
    for (char& c : suffix) {
      c = kAlphabet[bits % 36];
      bits /= 36;
    }
    file.path = prefix + suffix;
    // Registered first: a handler that runs before the file exists unlinks nothing, and one that
    // started before the registration is seen below (the file is then removed here).
    file.cleanup_slot = register_cleanup_path(file.path);
    file.fd = ::open(file.path.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0666);
    if (file.fd >= 0) {
      if (g_removing.load()) {
        ::unlink(file.path.c_str());
        for (;;)
          ::pause();
      }
      return file;
    }
    const int error = errno;
    unregister_cleanup_path(file.cleanup_slot);
    file.cleanup_slot = -1;
    errno = error;
    if (error != EEXIST)
      return file;
  }
  return file;
}

void unregister_cleanup_path(int slot) noexcept {
  if (slot < 0)
    return;
  g_state[slot].store(kFree);
  // A handler that saw the slot ready may be reading its path: keep the slot from being
  // written again until the process, which is dying, is gone.
  if (g_removing.load())
    for (;;)
      ::pause();
}

void install_signal_cleanup() {
  for (const int signal_number : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction action {};
    action.sa_handler = on_signal;
    sigemptyset(&action.sa_mask);
    ::sigaction(signal_number, &action, nullptr);
  }
}

} // namespace gnnpart::io
