#include "execution/thread_pool.hpp"

#include "execution/run_mutex.hpp"

namespace reactor {

ThreadPool::ThreadPool(int max_threads) : max_threads_(max_threads < 1 ? 1 : max_threads) {}

ThreadPool::~ThreadPool() {
  {
    std::lock_guard lock(mu_);
    closing_ = true;
  }
  cv_.notify_all();
  for (auto& t : threads_) t.join();
}

void ThreadPool::submit(std::function<void()> task) {
  std::lock_guard lock(mu_);
  queue_.push_back(std::move(task));
  queued_.store(queue_.size(), std::memory_order_relaxed);  // a hint: mu_ orders the queue
  // Queued work beyond the idle threads needs a thread of its own.
  if (static_cast<int>(queue_.size()) > idle_ && static_cast<int>(threads_.size()) < max_threads_) {
    threads_.emplace_back([this] { work(); });
  } else {
    cv_.notify_one();
  }
}

void ThreadPool::work() {
  std::unique_lock lock(mu_);
  for (;;) {
    ++idle_;
    if (queue_.empty() && !closing_) {
      lock.unlock();
      for (int k = 0; k < kIdleSpins && queued_.load(std::memory_order_relaxed) == 0; ++k) {
        relax_cpu();
      }
      lock.lock();
    }
    cv_.wait(lock, [&] { return closing_ || !queue_.empty(); });
    --idle_;
    if (queue_.empty()) return;  // closing and drained
    auto task = std::move(queue_.front());
    queue_.pop_front();
    queued_.store(queue_.size(), std::memory_order_relaxed);  // a hint: mu_ orders the queue
    lock.unlock();
    task();
    lock.lock();
  }
}

}  // namespace reactor
