// SqliteBackend::transact, shared by the backend's facets (backend.cpp, commit.cpp, runs.cpp,
// queue.cpp, leases.cpp): every operation is one transaction, retried whole while another
// connection holds the lock.
#pragma once

#include <algorithm>
#include <mutex>
#include <optional>

#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/rows.hpp"

namespace reactor {

template <typename Body>
Status SqliteBackend::transact(Mode mode, const char* what, Body&& body) {
  const int max_attempts = std::max(1, options_.max_attempts);
  for (int attempt = 1;; ++attempt) {
    std::optional<sqlite::ConnectionPool::Handle> conn;
    // This backend's writers take turns here, woken in microseconds, rather than in SQLite's
    // busy handler, which sleeps a millisecond and more between tries of the file's lock.
    std::unique_lock<std::mutex> turn(write_turn_, std::defer_lock);
    if (mode != Mode::kRead) turn.lock();
    try {
      conn.emplace(pool_.acquire());
      sqlite::Connection& db = **conn;
      db.relax_sync(mode == Mode::kLeaseWrite);
      if (mode != Mode::kRead) {
        // IMMEDIATE takes the write lock up front (waiting up to busy_timeout), so a writer
        // never fails half way through on a lock upgrade another connection won.
        db.exec("BEGIN IMMEDIATE");
      } else {
        db.exec("BEGIN");
      }
      Status s = body(db);
      if (!s.ok()) {
        db.rollback_quietly();
        return s;
      }
      db.exec("COMMIT");
      return Status::Ok();
    } catch (const sqlite::SqliteError& e) {
      if (conn) {
        (*conn)->rollback_quietly();
        if (!e.busy()) conn->discard();  // it may be unusable; the next caller opens a fresh one
      }
      if (e.busy() && attempt < max_attempts) {
        conn.reset();
        if (turn.owns_lock()) turn.unlock();
        sqlite::backoff(attempt);
        continue;
      }
      return sqlite::error_status(e, url_, what, attempt);
    } catch (const std::exception& e) {
      if (conn) (*conn)->rollback_quietly();
      return Status::Internal(url_ + ": " + what + ": " + e.what());
    }
  }
}

}  // namespace reactor
