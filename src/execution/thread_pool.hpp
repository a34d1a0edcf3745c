// ThreadPool: runs the parallel branches of runs with max_concurrency > 1.
//
// It grows a thread whenever every thread is busy (up to a high cap), because
// a branch may itself be a composed child that waits for its own branches: a
// fixed-size pool could deadlock with every thread waiting on queued work.
#pragma once

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
  std::vector<std::thread> threads_;
  int idle_ = 0;
  int max_threads_;
  bool closing_ = false;
};

}  // namespace reactor
