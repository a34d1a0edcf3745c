// CommitGroups: the commits of several threads to one store with one writer, written
// together — LevelDB's write queue (DBImpl::Write). The thread whose commit is first in line
// writes every commit queued behind it, up to kMaxGroup, in one transaction (one lock, one
// fsync) while the others wait; each commit keeps its own outcome, so a refused one refuses
// alone. A commit alone in line is written at once: a single-threaded worker waits for nobody.
//
// Thread safety: write() may be called from any number of threads at once.
#pragma once

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <span>
#include <utility>

#include "reactor/backend.hpp"
#include "reactor/job_queue.hpp"
#include "reactor/status.hpp"

namespace reactor::storage {

// One commit of a group, and what became of it.
struct GroupedCommit {
  explicit GroupedCommit(const CommitRequest* c, const FetchRequest* f = nullptr)
      : commit(c), fetch(f) {}

  const CommitRequest* commit = nullptr;
  const FetchRequest* fetch = nullptr;  // the next job asked for with it (commit_then_fetch)
  Status status;                        // the commit's own: applied, refused or failed
  std::optional<Delivery> fetched;      // what `fetch` took, when the commit was applied
};

class CommitGroups {
 public:
  static constexpr std::size_t kMaxGroup = 32;
  // Writes the group it is given in one transaction, filling in each one's status and fetch.
  using WriteGroup = std::function<void(std::span<GroupedCommit* const> group)>;

  explicit CommitGroups(WriteGroup write_group) : write_group_(std::move(write_group)) {}

  // Returns once `mine` is written or refused: by this thread, with the commits queued behind it,
  // or by the thread ahead of it in line, with it.
  void write(GroupedCommit& mine);
  // The commits in line, the group being written included.
  std::size_t in_line();

 private:
  struct Waiter {
    explicit Waiter(GroupedCommit* c) : commit(c) {}
    GroupedCommit* commit;
    bool done = false;
    std::condition_variable wake;
  };

  const WriteGroup write_group_;
  std::mutex mu_;
  std::deque<Waiter*> line_;
};

}  // namespace reactor::storage
