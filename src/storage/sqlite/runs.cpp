#include <algorithm>

#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::header_columns;
using sqlite::read_header;
using sqlite::read_headers;
using sqlite::read_run;
using sqlite::SqliteError;
using sqlite::Statement;

namespace {

// SQL list of the statuses that end a run, for purge_expired.
std::string terminal_status_list() {
  std::string out;
  for (RunStatus s : all_run_statuses()) {
    if (!is_terminal(s)) continue;
    if (!out.empty()) out += ", ";
    out += '\'';
    out += to_string(s);
    out += '\'';
  }
  return out;
}

// The runs a listing shows: roots callers started, and with `elements` fan-out maps' element runs
// (roots of their own, with a parent). Their status is read from runs_roots_status for roots and
// runs_children_status for the others (schema version 13); it is parameter 1 wherever it stands.
std::string listed(const RunFilter& filter) {
  std::string where = filter.elements ? "root_id = id" : "parent_id = ''";
  if (filter.status) {
    where += filter.elements
                 ? " AND ((parent_id = '' AND status = ?1) OR (parent_id <> '' AND status = ?1))"
                 : " AND status = ?1";
  }
  if (filter.reactor) where += " AND reactor = ?";
  return where;
}

// Binds what listed(filter) asks for; returns the index of the last parameter bound.
int bind_listed(Statement& st, const RunFilter& filter) {
  int index = 0;
  if (filter.status) st.bind_at(++index, to_string(*filter.status));
  if (filter.reactor) st.bind_at(++index, *filter.reactor);
  return index;
}

}  // namespace

Result<StoredRun> SqliteBackend::load_run(const std::string& root_id) {
  StoredRun run;
  Status s =
      transact(Mode::kRead, "load_run", [&](Connection& db) { return read_run(db, root_id, run); });
  if (!s.ok()) return s;
  return run;
}

Result<RunHeaderRow> SqliteBackend::load_header(const std::string& run_id) {
  RunHeaderRow out;
  Status s = transact(Mode::kRead, "load_header", [&](Connection& db) -> Status {
    Statement st = db.prepare("SELECT " + header_columns() + " FROM runs WHERE id = ?");
    st.bind(run_id);
    if (!st.step()) return Status::NotFound("run " + run_id + " not found");
    return read_header(st, out);
  });
  if (!s.ok()) return s;
  return out;
}

Result<std::vector<RunHeaderRow>> SqliteBackend::list_runs(const RunFilter& filter) {
  const std::string sql = "SELECT " + header_columns() + " FROM runs WHERE " + listed(filter) +
                          " ORDER BY updated_at DESC, id DESC LIMIT ?";
  std::vector<RunHeaderRow> rows;
  Status s = transact(Mode::kRead, "list_runs", [&](Connection& db) -> Status {
    rows.clear();
    Statement st = db.prepare(sql);
    const int index = bind_listed(st, filter);
    st.bind_at(index + 1,
               static_cast<std::int64_t>(std::min<std::size_t>(filter.limit, INT64_MAX)));
    return read_headers(st, rows);
  });
  if (!s.ok()) return s;
  return rows;
}

Result<std::size_t> SqliteBackend::count_runs(const RunFilter& filter) {
  const std::string sql = "SELECT count(*) FROM runs WHERE " + listed(filter);
  std::int64_t count = 0;
  Status s = transact(Mode::kRead, "count_runs", [&](Connection& db) -> Status {
    Statement st = db.prepare(sql);
    bind_listed(st, filter);
    count = st.step() ? st.int64(0) : 0;
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return static_cast<std::size_t>(count);
}

Result<std::vector<RunHeaderRow>> SqliteBackend::find_orphans(std::size_t limit) {
  std::vector<RunHeaderRow> rows;
  Status s = transact(Mode::kRead, "find_orphans", [&](Connection& db) -> Status {
    rows.clear();
    Statement st = db.prepare(
        "SELECT " + header_columns() +
        " FROM runs r WHERE r.root_id = r.id AND ("
        "  (r.status IN ('running', 'rolling_back') AND NOT EXISTS ("
        "     SELECT 1 FROM leases l WHERE l.key = 'run:' || r.id"
        "     AND l.owner IS NOT NULL AND l.expires_at > ?1))"
        "  OR ((r.status = 'enqueued' OR (r.status IN ('waiting', 'paused', 'scheduled') AND "
        "r.wake_at > 0))"
        "     AND NOT EXISTS (SELECT 1 FROM jobs j WHERE j.run_id = r.id)))"
        " ORDER BY r.updated_at, r.id LIMIT ?2");
    st.bind(now_ms(), static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
    return read_headers(st, rows);
  });
  if (!s.ok()) return s;
  return rows;
}

Result<std::size_t> SqliteBackend::purge_expired(std::size_t limit) {
  std::size_t count = 0;
  Status s = transact(Mode::kWrite, "purge_expired", [&](Connection& db) -> Status {
    count = 0;
    const std::int64_t now = now_ms();
    std::vector<std::string> roots;
    {
      Statement st = db.prepare(
          "SELECT id FROM runs WHERE parent_id = '' AND status IN (" + terminal_status_list() +
          ") AND expires_at > 0 AND expires_at <= ? ORDER BY expires_at, id LIMIT ?");
      st.bind(now, static_cast<std::int64_t>(std::min<std::size_t>(limit, INT64_MAX)));
      while (st.step()) roots.push_back(st.text(0));
    }
    // A root's runs, and under its prefix "<root>:" its maps and their element runs (which live
    // as long as it does: docs/maps.md) with everything theirs.
    const auto under = [](const std::string& column) {
      return "(" + column + " > ?1 || ':' AND " + column + " < ?1 || ';')";
    };
    const std::string tree = "(root_id = ?1 OR " + under("root_id") + ")";
    for (const auto& root : roots) {
      // Each run's steps, and the trace of each root among them, are the range under its key.
      db.prepare(
            "DELETE FROM run_rows WHERE key IN (SELECT x.key FROM runs r JOIN run_rows x ON "
            "x.key BETWEEN r.key << 21 AND (r.key << 21) | 2097151 WHERE " +
            tree + ")")
          .bind(root)
          .run();
      db.prepare("DELETE FROM run_inputs WHERE run_id IN (SELECT id FROM runs WHERE " + tree + ")")
          .bind(root)
          .run();
      db.prepare("DELETE FROM jobs WHERE run_id = ?1 OR " + under("run_id")).bind(root).run();
      db.prepare("DELETE FROM runs WHERE " + tree).bind(root).run();
      db.prepare("DELETE FROM maps WHERE " + under("map_id")).bind(root).run();
      db.prepare("DELETE FROM map_slots WHERE " + under("map_id")).bind(root).run();
      db.prepare(
            "DELETE FROM leases WHERE (key = 'run:' || ?1 OR (key > 'run:' || ?1 || ':' AND "
            "key < 'run:' || ?1 || ';')) AND (owner IS NULL OR expires_at <= ?2)")
          .bind(root, now)
          .run();
      ++count;
    }
    // Tokens come from one counter, so deleting a dead lease row never lets a token repeat; the
    // counter's own row (a BLOB key, leases.cpp) is never dead, and never a lease's.
    db.prepare(
          "DELETE FROM leases WHERE substr(key, 1, 4) <> 'run:' AND typeof(key) = 'text' "
          "AND (owner IS NULL OR expires_at <= ?)")
        .bind(now)
        .run();
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return count;
}

}  // namespace reactor
