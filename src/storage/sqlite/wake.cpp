// Why inotify: the fastest cross-process wake on one host; SQLite notifies nobody of a commit.
#include "storage/sqlite/wake.hpp"

#include <fcntl.h>
#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdint>
#include <system_error>

namespace reactor::sqlite {

namespace {

// A touch writes (IN_MODIFY, IN_CLOSE_WRITE); IN_ATTRIB is a `touch` from a shell. The file
// deleted or replaced ends the watch, which is armed again on the new one.
constexpr std::uint32_t kWatched =
    IN_MODIFY | IN_ATTRIB | IN_CLOSE_WRITE | IN_DELETE_SELF | IN_MOVE_SELF;
constexpr std::uint32_t kWatchGone = IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF;

std::string errno_message(int e) { return std::error_code(e, std::generic_category()).message(); }

}  // namespace

std::string wake_path(const std::string& db_path) { return db_path + "-wake"; }

bool make_wake_file(const std::string& path) {
  // Read-only: making it must not look like a touch to those who watch it already.
  const int fd = ::open(path.c_str(), O_RDONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return false;
  ::close(fd);
  return true;
}

void touch_wake_file(const std::string& path) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return;
  [[maybe_unused]] const ssize_t wrote = ::pwrite(fd, "s", 1, 0);
  ::close(fd);
}

WakeWatch::~WakeWatch() {
  if (fd_ >= 0) ::close(fd_);
}

Status WakeWatch::arm(const std::string& path) {
  path_ = path;
  if (fd_ < 0) fd_ = ::inotify_init1(IN_CLOEXEC | IN_NONBLOCK);
  if (fd_ < 0) {
    return Status::Unavailable("cannot watch " + path_ +
                               ": inotify_init1: " + errno_message(errno));
  }
  return add_watch();
}

Status WakeWatch::add_watch() {
  make_wake_file(path_);  // inotify watches a file that exists
  if (::inotify_add_watch(fd_, path_.c_str(), kWatched) < 0) {
    return Status::Unavailable("cannot watch " + path_ + ": " + errno_message(errno));
  }
  return Status::Ok();
}

Status WakeWatch::wait_until(std::chrono::steady_clock::time_point deadline) {
  using std::chrono::steady_clock;
  for (;;) {
    const steady_clock::time_point now = steady_clock::now();
    if (now >= deadline) return Status::Ok();
    // In slices of at most an hour: poll's timeout is an int of milliseconds.
    const steady_clock::duration left = std::min<steady_clock::duration>(
        deadline - now, std::chrono::duration_cast<steady_clock::duration>(std::chrono::hours(1)));
    pollfd p{fd_, POLLIN, 0};
    const int ready =
        ::poll(&p, 1, static_cast<int>(std::chrono::ceil<std::chrono::milliseconds>(left).count()));
    if (ready < 0 && errno == EINTR) continue;
    if (ready < 0) return Status::Unavailable("watching " + path_ + ": " + errno_message(errno));
    if (ready > 0) break;
  }
  bool gone = false;
  alignas(inotify_event) char events[4096];
  for (;;) {
    const ssize_t got = ::read(fd_, events, sizeof events);
    if (got < 0 && errno == EINTR) continue;
    if (got <= 0) break;  // EAGAIN: drained
    for (ssize_t at = 0; at < got;) {
      const auto* e = reinterpret_cast<const inotify_event*>(events + at);
      if (e->mask & kWatchGone) gone = true;
      at += static_cast<ssize_t>(sizeof(inotify_event) + e->len);
    }
  }
  return gone ? add_watch() : Status::Ok();
}

}  // namespace reactor::sqlite
