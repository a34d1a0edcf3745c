#include "heap_counter.hpp"

#include <malloc.h>

#include <atomic>
#include <cstdlib>
#include <new>

namespace reactor_bench::heap {

namespace {

// Counting is switched on only around the untimed measuring run. Sizes are malloc_usable_size
// (what the allocation really holds, malloc's rounding included), taken at new and at delete,
// so the live total stays consistent without a header in front of every block.
std::atomic<bool> counting{false};
std::atomic<std::int64_t> live_bytes{0};
std::atomic<std::int64_t> peak_bytes{0};
std::atomic<std::int64_t> allocs{0};

inline void on_alloc(void* p) {
  if (p == nullptr || !counting.load(std::memory_order_relaxed)) return;
  const auto n = static_cast<std::int64_t>(malloc_usable_size(p));
  allocs.fetch_add(1, std::memory_order_relaxed);
  const std::int64_t now = live_bytes.fetch_add(n, std::memory_order_relaxed) + n;
  std::int64_t seen = peak_bytes.load(std::memory_order_relaxed);
  while (now > seen && !peak_bytes.compare_exchange_weak(seen, now, std::memory_order_relaxed)) {
  }
}

inline void on_free(void* p) {
  if (p == nullptr || !counting.load(std::memory_order_relaxed)) return;
  live_bytes.fetch_sub(static_cast<std::int64_t>(malloc_usable_size(p)), std::memory_order_relaxed);
}

inline void* alloc(std::size_t n) {
  void* p = std::malloc(n == 0 ? 1 : n);
  on_alloc(p);
  return p;
}

inline void* alloc_aligned(std::size_t n, std::align_val_t al) {
  const auto a = static_cast<std::size_t>(al);
  std::size_t size = (n + a - 1) / a * a;  // aligned_alloc wants a multiple of the alignment
  void* p = std::aligned_alloc(a, size == 0 ? a : size);
  on_alloc(p);
  return p;
}

// Not inlined: GCC would otherwise see free() applied to what operator new returned
// (-Wmismatched-new-delete).
[[gnu::noinline]] void release(void* p) {
  on_free(p);
  std::free(p);
}

}  // namespace

void start() {
  live_bytes.store(0);
  peak_bytes.store(0);
  allocs.store(0);
  counting.store(true);
}
Snapshot snapshot() { return {live_bytes.load(), allocs.load()}; }
std::int64_t peak() { return peak_bytes.load(); }
std::int64_t live() { return live_bytes.load(); }
void stop() { counting.store(false); }

}  // namespace reactor_bench::heap

namespace heap = reactor_bench::heap;

void* operator new(std::size_t n) {
  void* p = heap::alloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t n) {
  void* p = heap::alloc(n);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t n, const std::nothrow_t&) noexcept { return heap::alloc(n); }
void* operator new[](std::size_t n, const std::nothrow_t&) noexcept { return heap::alloc(n); }
void* operator new(std::size_t n, std::align_val_t al) {
  void* p = heap::alloc_aligned(n, al);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new[](std::size_t n, std::align_val_t al) {
  void* p = heap::alloc_aligned(n, al);
  if (p == nullptr) throw std::bad_alloc();
  return p;
}
void* operator new(std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return heap::alloc_aligned(n, al);
}
void* operator new[](std::size_t n, std::align_val_t al, const std::nothrow_t&) noexcept {
  return heap::alloc_aligned(n, al);
}
void operator delete(void* p) noexcept { heap::release(p); }
void operator delete[](void* p) noexcept { heap::release(p); }
void operator delete(void* p, std::size_t) noexcept { heap::release(p); }
void operator delete[](void* p, std::size_t) noexcept { heap::release(p); }
void operator delete(void* p, const std::nothrow_t&) noexcept { heap::release(p); }
void operator delete[](void* p, const std::nothrow_t&) noexcept { heap::release(p); }
void operator delete(void* p, std::align_val_t) noexcept { heap::release(p); }
void operator delete[](void* p, std::align_val_t) noexcept { heap::release(p); }
void operator delete(void* p, std::size_t, std::align_val_t) noexcept { heap::release(p); }
void operator delete[](void* p, std::size_t, std::align_val_t) noexcept { heap::release(p); }
void operator delete(void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  heap::release(p);
}
void operator delete[](void* p, std::align_val_t, const std::nothrow_t&) noexcept {
  heap::release(p);
}
