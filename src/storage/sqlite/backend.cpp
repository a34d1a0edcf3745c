#include "storage/sqlite/backend.hpp"

#include <sqlite3.h>

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <random>
#include <thread>

#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/schema.hpp"
#include "storage/sqlite/transact.hpp"
#include "storage/sqlite/wake.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::SqliteError;
using sqlite::Statement;

namespace sqlite {

Status error_status(const SqliteError& e, const std::string& url, const char* what, int attempts) {
  std::string message = url + ": " + what + ": " + e.what();
  switch (e.code() & 0xff) {
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      return Status::Unavailable(message + " (still locked after " + std::to_string(attempts) +
                                 " attempts)");
    case SQLITE_CORRUPT:
    case SQLITE_NOTADB:
      return Status::Corruption(message);
    case SQLITE_CANTOPEN:
    case SQLITE_IOERR:
    case SQLITE_FULL:
    case SQLITE_READONLY:
    case SQLITE_PERM:
    case SQLITE_NOLFS:
    case SQLITE_PROTOCOL:
    case SQLITE_AUTH:
      return Status::Unavailable(message);
    default:
      return Status::Internal(message);
  }
}

// Between whole-transaction retries: short, growing, jittered, so two processes that collided
// do not collide again in lock step. Real time on purpose: this waits for another process's
// lock, not for anything the injected clock models.
void backoff(int attempt) {
  thread_local std::minstd_rand rng{std::random_device{}()};
  const int cap_ms = std::min(1 << std::min(attempt, 6), 50);
  std::uniform_int_distribution<int> jitter(0, cap_ms * 1000);
  std::this_thread::sleep_for(std::chrono::microseconds(cap_ms * 500 + jitter(rng) / 2));
}

}  // namespace sqlite

SqliteBackend::SqliteBackend(std::string url, const SqliteOptions& options,
                             std::shared_ptr<Clock> clock)
    : url_(std::move(url)),
      options_(options),
      clock_(clock ? std::move(clock) : SystemClock::instance()),
      wake_path_(sqlite::wake_path(options.path)),
      pool_(options.path, options.synchronous, options.busy_timeout_ms) {}

std::int64_t SqliteBackend::now_ms() const { return storage::now_ms(*clock_); }

std::string SqliteBackend::describe() const { return url_; }

Status SqliteBackend::open(const std::string& url, const SqliteOptions& options,
                           std::shared_ptr<Clock> clock, std::unique_ptr<Backend>& out) {
  namespace fs = std::filesystem;
  if (options.path.empty()) {
    return Status::InvalidArgument("cannot open " + url + ": no database file named");
  }
  const fs::path dir = fs::path(options.path).parent_path();
  std::error_code ec;
  if (!options.create && !fs::exists(options.path, ec)) {
    return Status::NotFound("cannot open " + url + ": database file " + options.path +
                            " does not exist");
  }
  if (!dir.empty() && !fs::is_directory(dir, ec)) {
    return Status::Unavailable("cannot open " + url + ": directory " + dir.string() +
                               " does not exist");
  }

  std::unique_ptr<SqliteBackend> backend(new SqliteBackend(url, options, std::move(clock)));

  // WAL lets readers work while one writer commits, across processes. The mode is stored in the
  // file, so this only changes something on the first open; it must run outside a transaction.
  std::string journal_mode;
  Status s;
  for (int attempt = 1; attempt <= std::max(1, options.max_attempts); ++attempt) {
    try {
      auto conn = backend->pool_.acquire();
      Statement st = conn->prepare("PRAGMA journal_mode=WAL");
      journal_mode = st.step() ? st.text(0) : "";
      s = Status::Ok();
      break;
    } catch (const SqliteError& e) {
      s = sqlite::error_status(e, url, "journal_mode", attempt);
      if (!e.busy()) break;
      sqlite::backoff(attempt);
    }
  }
  if (s.ok() && journal_mode != "wal") {
    s = Status::Unavailable(url + ": the file system does not support WAL (journal_mode is '" +
                            journal_mode + "')");
  }
  if (s.ok()) {
    s = backend->transact(Mode::kWrite, "migrate", [&url](Connection& db) -> Status {
      try {
        sqlite::migrate(db);
      } catch (const sqlite::SchemaTooNew& e) {
        return Status::Unavailable(url + ": " + e.what());
      }
      return Status::Ok();
    });
  }
  // Every message above starts with the URL.
  if (!s.ok()) return Status::Unavailable("cannot open " + s.message());
  // A commit that wakes someone and every wait make it when missing; without it, and on an
  // injected clock whose due times are not the host's, an idle worker polls (wakes_waiters()).
  const bool has_wake_file = sqlite::make_wake_file(backend->wake_path_);
  backend->wakes_waiters_ =
      has_wake_file && dynamic_cast<const SystemClock*>(backend->clock_.get()) != nullptr;
  out = std::move(backend);
  return Status::Ok();
}

}  // namespace reactor
