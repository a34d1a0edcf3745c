#include "storage/commit_groups.hpp"

#include <array>
#include <exception>

namespace reactor::storage {

void CommitGroups::write(GroupedCommit& mine) {
  Waiter me(&mine);
  std::unique_lock lock(mu_);
  line_.push_back(&me);
  me.wake.wait(lock, [&] { return me.done || line_.front() == &me; });
  if (me.done) return;  // the thread ahead wrote it
  std::array<GroupedCommit*, kMaxGroup> group;
  std::size_t n = 0;
  for (Waiter* w : line_) {
    if (n == kMaxGroup) break;
    group[n++] = w->commit;
  }
  lock.unlock();
  try {
    write_group_(std::span<GroupedCommit* const>(group.data(), n));
  } catch (const std::exception& e) {
    for (std::size_t i = 0; i < n; ++i) group[i]->status = Status::Internal(e.what());
  }
  lock.lock();
  for (std::size_t i = 0; i < n; ++i) {
    Waiter* w = line_.front();
    line_.pop_front();
    w->done = true;
    if (w != &me) w->wake.notify_one();  // under the lock: it cannot leave before we let go
  }
  if (!line_.empty()) line_.front()->wake.notify_one();  // the next in line writes the next group
}

std::size_t CommitGroups::in_line() {
  std::lock_guard lock(mu_);
  return line_.size();
}

}  // namespace reactor::storage
