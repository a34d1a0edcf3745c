// Why inotify: the fastest cross-process wake on one host; SQLite notifies nobody of a commit.
// A commit that settles a fan-out map touches the database's wake file after its transaction;
// wait_for_settle watches that file (docs/storage.md).
#pragma once

#include <chrono>
#include <string>

#include "reactor/status.hpp"
#include "reactor/value.hpp"

namespace reactor::sqlite {

// "<db path>-wake", beside the database's -wal and -shm files. Its content never matters.
std::string wake_path(const std::string& db_path);

// Makes the wake file if it is missing. Whether it exists now.
bool make_wake_file(const std::string& path);

// Writes a byte into the wake file (made if missing), so that every watch of it sees an event.
// Call it only once the commit is visible: a waiter woken before would read the old row and
// sleep on. Best effort: a waiter that misses it wakes at its deadline.
void touch_wake_file(const std::string& path);

// An inotify watch on a wake file; its descriptor is closed when the watch goes.
class WakeWatch {
 public:
  WakeWatch() = default;
  WakeWatch(const WakeWatch&) = delete;
  WakeWatch& operator=(const WakeWatch&) = delete;
  ~WakeWatch();

  // Watches `path` (made if missing): every touch from now on is seen. Unavailable naming the
  // file when it cannot be watched.
  Status arm(const std::string& path);
  // Blocks until the file changes (a spurious event is possible) or `deadline` passes, then
  // drains the events. A watch whose file was deleted or replaced is armed again on the new
  // one: the caller re-reads what it waits for after every return, so nothing is missed.
  Status wait_until(std::chrono::steady_clock::time_point deadline);

 private:
  Status add_watch();

  std::string path_;
  int fd_ = -1;
};

}  // namespace reactor::sqlite
