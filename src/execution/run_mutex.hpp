// RunMutex: the lock of one run tree (Execution::mutex()). Its holders keep it
// for well under a microsecond (record a step, prepare the next), and the
// threads of parallel branches take it once per step each. A thread that finds
// it taken spins for a few microseconds before it sleeps: sleeping on the lock
// and being woken costs tens of microseconds on a shared machine, far more
// than the wait, and was most of a parallel step's cost.
#pragma once

#include <mutex>
#include <thread>

namespace reactor {

// What a thread does between two looks at something another thread is about to change.
inline void relax_cpu() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#else
  std::this_thread::yield();
#endif
}

class RunMutex {
 public:
  void lock() {
    for (int k = 0; k < kSpins; ++k) {
      if (mu_.try_lock()) return;
      relax_cpu();
    }
    mu_.lock();
  }
  bool try_lock() { return mu_.try_lock(); }
  void unlock() { mu_.unlock(); }

 private:
  static constexpr int kSpins = 256;

  std::mutex mu_;
};

}  // namespace reactor
