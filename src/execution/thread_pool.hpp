// ThreadPool: runs the parallel branches of runs with max_concurrency > 1.
//
// It grows a thread whenever every thread is busy (up to a high cap), because
// a branch may itself be a composed child that waits for its own branches: a
// fixed-size pool could deadlock with every thread waiting on queued work.
// An idle thread looks for work for a few microseconds before it sleeps: the
// next wave of parallel steps usually comes sooner than a wake-up would.
#pragma once

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <thread>
#include <vector>

namespace reactor {

class ThreadPool {
 public:
  explicit ThreadPool(int max_threads);
  ~ThreadPool();  // finishes queued work, then joins
  ThreadPool(const ThreadPool&) = delete;
  ThreadPool& operator=(const ThreadPool&) = delete;

  void submit(std::function<void()> task);

 private:
  void work();

  std::mutex mu_;
  std::condition_variable cv_;
  std::deque<std::function<void()>> queue_;
  std::atomic<std::size_t> queued_{0};  // queue_.size(), read without the lock
  std::vector<std::thread> threads_;
  int idle_ = 0;
  int max_threads_;
  static constexpr int kIdleSpins = 1024;
  bool closing_ = false;
};

}  // namespace reactor
