#include <sqlite3.h>

#include "storage/commit_refusals.hpp"
#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::SqliteError;
using sqlite::Statement;

namespace {

// The last token granted, for every key, is the token of the row whose key is the BLOB
// 'fencing_token' (schema version 13): a BLOB sorts after every TEXT key, so the row is the last
// of `leases` and shares its leaf with the newest run leases, which a fetch takes beside a token.
// No lease key is a BLOB; the row is held forever (owner 'reactor', expires_at the largest
// integer), so no release or purge of dead leases touches it.
std::uint64_t next_fencing_token(Connection& db) {
  Statement st = db.prepare(
      "UPDATE leases SET token = token + 1 WHERE key = CAST('fencing_token' AS BLOB) "
      "RETURNING token");
  if (!st.step()) throw SqliteError(SQLITE_CORRUPT, "leases: the fencing_token row is missing");
  return static_cast<std::uint64_t>(st.int64(0));
}

}  // namespace

namespace sqlite {

// Takes `key` for `owner` whoever holds it, with a new token.
Lease seize(Connection& db, const std::string& key, const std::string& owner,
            std::int64_t expires_at) {
  Lease out{key, owner, next_fencing_token(db), expires_at};
  db.prepare(
        "INSERT INTO leases(key, owner, token, expires_at) VALUES (?, ?, ?, ?) "
        "ON CONFLICT(key) DO UPDATE SET owner = excluded.owner, token = excluded.token, "
        "expires_at = excluded.expires_at")
      .bind(key, owner, out.token, out.expires_at_ms)
      .run();
  return out;
}

bool try_acquire(Connection& db, const std::string& key, const std::string& owner,
                 std::int64_t ttl_ms, std::int64_t now, Lease& out) {
  {
    Statement st = db.prepare("SELECT owner, token, expires_at FROM leases WHERE key = ?");
    st.bind(key);
    if (st.step() && !st.is_null(0) && st.int64(2) > now) {
      out = Lease{key, st.text(0), static_cast<std::uint64_t>(st.int64(1)), st.int64(2)};
      return false;
    }
  }
  out = seize(db, key, owner, now + ttl_ms);
  return true;
}

}  // namespace sqlite

Result<LeaseGrant> SqliteBackend::acquire_lease(const std::string& key, const std::string& owner,
                                                Duration ttl) {
  bool granted = false;
  Lease out;
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("acquire_lease: key and owner must not be empty");
  }
  Status s = transact(Mode::kWrite, "acquire_lease", [&](Connection& db) -> Status {
    granted = try_acquire(db, key, owner, storage::to_ms(ttl), now_ms(), out);
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return LeaseGrant{granted, std::move(out)};
}

Status SqliteBackend::extend_lease(const std::string& key, const std::string& owner,
                                   std::uint64_t token, Duration ttl) {
  return transact(Mode::kWrite, "extend_lease", [&](Connection& db) -> Status {
    db.prepare("UPDATE leases SET expires_at = ? WHERE key = ? AND owner = ? AND token = ?")
        .bind(now_ms() + storage::to_ms(ttl), key, owner, token)
        .run();
    if (db.changes() == 0) {
      return storage::lease_not_held(key, owner, token);
    }
    return Status::Ok();
  });
}

Status SqliteBackend::release_lease(const std::string& key, const std::string& owner,
                                    std::uint64_t token) {
  return transact(Mode::kWrite, "release_lease", [&](Connection& db) -> Status {
    db.prepare(
          "UPDATE leases SET owner = NULL, expires_at = ? "
          "WHERE key = ? AND owner = ? AND token = ?")
        .bind(now_ms(), key, owner, token)
        .run();
    return Status::Ok();
  });
}

Result<Lease> SqliteBackend::seize_lease(const std::string& key, const std::string& owner,
                                         Duration ttl) {
  if (key.empty() || owner.empty()) {
    return Status::InvalidArgument("seize_lease: key and owner must not be empty");
  }
  Lease out;
  Status s = transact(Mode::kWrite, "seize_lease", [&](Connection& db) -> Status {
    out = sqlite::seize(db, key, owner, now_ms() + storage::to_ms(ttl));
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<Lease> SqliteBackend::peek_lease(const std::string& key) {
  Lease out;
  out = Lease{key, "", 0, 0};
  Status s = transact(Mode::kRead, "peek_lease", [&](Connection& db) -> Status {
    Statement st = db.prepare(
        "SELECT owner, token, expires_at FROM leases WHERE key = ? AND owner IS NOT NULL "
        "AND "
        "expires_at > ?");
    st.bind(key, now_ms());
    if (st.step())
      out = Lease{key, st.text(0), static_cast<std::uint64_t>(st.int64(1)), st.int64(2)};
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

}  // namespace reactor
