#include "storage/sqlite/schema.hpp"

namespace reactor::sqlite {

namespace {

// Version 1: runs, inputs, steps, trace, jobs, leases and the fencing-token counter, a
// function a concept.
void create_v1_runs(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE runs (
      id             TEXT PRIMARY KEY,
      root_id        TEXT NOT NULL,
      parent_id      TEXT NOT NULL DEFAULT '',
      reactor        TEXT NOT NULL,
      status         TEXT NOT NULL,
      fingerprint    TEXT NOT NULL DEFAULT '',
      schema_version INTEGER NOT NULL,
      body           TEXT NOT NULL,
      updated_at     INTEGER NOT NULL,
      expires_at     INTEGER NOT NULL
    );
    CREATE INDEX runs_root_id ON runs(root_id);
    CREATE INDEX runs_status ON runs(status);

    CREATE TABLE run_inputs (
      run_id TEXT PRIMARY KEY,
      inputs TEXT NOT NULL
    );

    CREATE TABLE steps (
      run_id TEXT NOT NULL,
      idx    INTEGER NOT NULL,
      body   TEXT NOT NULL,
      PRIMARY KEY (run_id, idx)
    ) WITHOUT ROWID;

    CREATE TABLE trace (
      root_id TEXT NOT NULL,
      seq     INTEGER NOT NULL,
      body    TEXT NOT NULL,
      PRIMARY KEY (root_id, seq)
    ) WITHOUT ROWID;
  )sql");
}

void create_v1_jobs(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE jobs (
      id            INTEGER PRIMARY KEY AUTOINCREMENT,
      queue         TEXT NOT NULL,
      kind          TEXT NOT NULL,
      run_id        TEXT NOT NULL,
      reactor       TEXT NOT NULL,
      run_at        INTEGER NOT NULL,
      snoozes       INTEGER NOT NULL DEFAULT 0,
      deliveries    INTEGER NOT NULL DEFAULT 0,
      lease_owner   TEXT,
      lease_expires INTEGER NOT NULL DEFAULT 0
    );
    CREATE INDEX jobs_due ON jobs(queue, run_at, id);
    CREATE INDEX jobs_run_id ON jobs(run_id);
  )sql");
}

void create_v1_leases(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE leases (
      key        TEXT PRIMARY KEY,
      owner      TEXT,
      token      INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    );

    CREATE TABLE counters (
      name  TEXT PRIMARY KEY,
      value INTEGER NOT NULL
    );
    INSERT INTO counters(name, value) VALUES ('fencing_token', 0);
  )sql");
}

void create_v1(Connection& db) {
  create_v1_runs(db);
  create_v1_jobs(db);
  create_v1_leases(db);
}

// Version 2 changes no table: run headers name their steps and a step still
// untouched has no row (src/durability/run_records.cpp). It is recorded so
// that builds before it, which would fail such runs as unreadable, refuse the
// file instead.
void headers_name_their_steps(Connection&) {}

// Version 3: a run may be `waiting` (suspended), and its header row says by
// when a job must exist to wake it, and which execution wrote it last.
void runs_wake_at(Connection& db) {
  db.exec(
      "ALTER TABLE runs ADD COLUMN wake_at INTEGER NOT NULL DEFAULT 0;"
      "ALTER TABLE runs ADD COLUMN exec_token INTEGER NOT NULL DEFAULT 0;"
      "ALTER TABLE runs ADD COLUMN exec_worker TEXT NOT NULL DEFAULT ''");
}

// Version 4: run headers count their steps and name none (header version 4), which builds before
// it cannot read; and the records of fan-out maps (docs/maps.md): a row per map, a slot per
// element that reported.
void maps(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE maps (
      map_id          TEXT PRIMARY KEY,
      owner_id        TEXT NOT NULL,
      owner_reactor   TEXT NOT NULL,
      queue           TEXT NOT NULL,
      element_reactor TEXT NOT NULL,
      total           INTEGER NOT NULL,
      batch_size      INTEGER NOT NULL,
      atomic          INTEGER NOT NULL,
      state           TEXT NOT NULL,
      released        INTEGER NOT NULL,
      done            INTEGER NOT NULL,
      failed          INTEGER NOT NULL,
      undone          INTEGER NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE map_slots (
      map_id TEXT NOT NULL,
      idx    INTEGER NOT NULL,
      state  TEXT NOT NULL,
      body   TEXT NOT NULL,
      PRIMARY KEY (map_id, idx)
    ) WITHOUT ROWID;
  )sql");
}

// Version 5: runs.deliveries, the deliveries of a run since its last progress, counted by the
// fetch and cleared by a commit of progress (Delivery::run_deliveries; docs/durability.md).
// Builds of version 4 would never clear it, so they refuse the file instead.
// And maps.interrupted: the executions of a map's elements lost with their workers.
void runs_deliveries(Connection& db) {
  db.exec(
      "ALTER TABLE runs ADD COLUMN deliveries INTEGER NOT NULL DEFAULT 0;"
      "ALTER TABLE maps ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0");
}

// Version 6: cancelled elements (SlotState::kCancelled): maps.cancelled counts them; and each
// slot keeps its element's lost executions, which the owner copies into its trace.
void cancelled_elements(Connection& db) {
  db.exec(
      "ALTER TABLE maps ADD COLUMN cancelled INTEGER NOT NULL DEFAULT 0;"
      "ALTER TABLE map_slots ADD COLUMN interrupted INTEGER NOT NULL DEFAULT 0");
}

// Version 7: periodic starts (reactor/schedule_store.hpp), a row per schedule, its columns
// ScheduleRow's fields.
void schedules(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE schedules (
      name          TEXT PRIMARY KEY,
      reactor       TEXT NOT NULL,
      every_ms      INTEGER NOT NULL,
      cron          TEXT NOT NULL,
      inputs        TEXT NOT NULL,
      missed        TEXT NOT NULL,
      grace_ms      INTEGER NOT NULL,
      last_fired_ms INTEGER NOT NULL,
      updated_at_ms INTEGER NOT NULL
    ) WITHOUT ROWID;
  )sql");
}

// Version 8: coordination (reactor/hold_store.hpp), the rows of storage::HoldState: a row per
// holder of a lock or semaphore, rate windows by bucket with the charges counted in each, period
// marks, ordered chains and their members. Builds of version 7 would run coordinated reactors
// without taking or giving back holds, so they refuse the file instead.
void holds(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE hold_holders (
      key    TEXT NOT NULL,
      holder TEXT NOT NULL,
      claim  TEXT NOT NULL,
      kind   TEXT NOT NULL,
      lim    INTEGER NOT NULL,
      PRIMARY KEY (key, holder)
    ) WITHOUT ROWID;
    CREATE INDEX hold_holders_holder ON hold_holders(holder);

    CREATE TABLE rate_windows (
      key       TEXT NOT NULL,
      window_ms INTEGER NOT NULL,
      bucket_ms INTEGER NOT NULL,
      count     INTEGER NOT NULL,
      PRIMARY KEY (key, window_ms, bucket_ms)
    ) WITHOUT ROWID;

    CREATE TABLE rate_charges (
      key       TEXT NOT NULL,
      window_ms INTEGER NOT NULL,
      bucket_ms INTEGER NOT NULL,
      charge_id TEXT NOT NULL,
      PRIMARY KEY (key, window_ms, bucket_ms, charge_id)
    ) WITHOUT ROWID;

    CREATE TABLE period_marks (
      mark   TEXT PRIMARY KEY,
      run_id TEXT NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE ordered_chains (
      key        TEXT PRIMARY KEY,
      next_seq   INTEGER NOT NULL,
      failed     INTEGER NOT NULL,
      failed_run TEXT NOT NULL
    ) WITHOUT ROWID;

    CREATE TABLE ordered_members (
      key    TEXT NOT NULL,
      seq    INTEGER NOT NULL,
      run_id TEXT NOT NULL,
      PRIMARY KEY (key, seq)
    ) WITHOUT ROWID;
  )sql");
}

// Version 9: the runs list's counts per status (the dashboard's first page) from an index of root
// runs by status: without it each count read every root run. A status change moves its entry, as
// it moves runs_status's; a checkpoint moves none. Builds of version 8 refuse the file, as with
// every version.
void roots_by_status(Connection& db) {
  db.exec("CREATE INDEX IF NOT EXISTS runs_roots_status ON runs(parent_id, status)");
}

// Version 10: fewer pages per commit (issue 27). `leases` without a rowid: one B-tree keyed by
// `key`, not a table beside an index of its key, so taking a new lease writes one B-tree, not
// two. And runs_roots_status holds the root runs only (parent_id = ''; the queries that read it
// say so): the status changes of map elements and composed children no longer move an entry of
// it. Its columns stay (parent_id, status), so the queries' plans are those of version 9: a
// count of roots is still read from the index alone. What each table holds does not change.
void fewer_pages_per_commit(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE leases_v10 (
      key        TEXT PRIMARY KEY,
      owner      TEXT,
      token      INTEGER NOT NULL,
      expires_at INTEGER NOT NULL
    ) WITHOUT ROWID;
    INSERT INTO leases_v10(key, owner, token, expires_at)
      SELECT key, owner, token, expires_at FROM leases;
    DROP TABLE leases;
    ALTER TABLE leases_v10 RENAME TO leases;

    DROP INDEX IF EXISTS runs_roots_status;
    CREATE INDEX runs_roots_status ON runs(parent_id, status) WHERE parent_id = '';
  )sql");
}

// Version 11: steps and trace keyed by one integer, `(run key << 20) | index`, where
// the run's key is the new INTEGER PRIMARY KEY of `runs` (stable across VACUUM, unlike an
// implicit rowid; the old rowid becomes it). As rowid tables they are appended to by SQLite's
// quick balance, a new leaf and its parent, where a WITHOUT ROWID table split the last leaf with
// two siblings: fewer WAL pages per step (issue 27). Rows no run names, or past the key's 20
// bits (more than any stored run may hold), are unreadable already and left behind.
void integer_keyed_rows(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE runs_v11 (
      key            INTEGER PRIMARY KEY,
      id             TEXT NOT NULL UNIQUE,
      root_id        TEXT NOT NULL,
      parent_id      TEXT NOT NULL DEFAULT '',
      reactor        TEXT NOT NULL,
      status         TEXT NOT NULL,
      fingerprint    TEXT NOT NULL DEFAULT '',
      schema_version INTEGER NOT NULL,
      body           TEXT NOT NULL,
      updated_at     INTEGER NOT NULL,
      expires_at     INTEGER NOT NULL,
      wake_at        INTEGER NOT NULL DEFAULT 0,
      exec_token     INTEGER NOT NULL DEFAULT 0,
      exec_worker    TEXT NOT NULL DEFAULT '',
      deliveries     INTEGER NOT NULL DEFAULT 0
    );
    INSERT INTO runs_v11(key, id, root_id, parent_id, reactor, status, fingerprint,
                         schema_version, body, updated_at, expires_at, wake_at, exec_token,
                         exec_worker, deliveries)
      SELECT rowid, id, root_id, parent_id, reactor, status, fingerprint, schema_version, body,
             updated_at, expires_at, wake_at, exec_token, exec_worker, deliveries
      FROM runs ORDER BY rowid;
    CREATE TABLE steps_v11 (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
    INSERT INTO steps_v11(key, body)
      SELECT (r.key << 20) | s.idx, s.body FROM steps s JOIN runs_v11 r ON r.id = s.run_id
      WHERE s.idx >= 0 AND s.idx < 1048576;
    CREATE TABLE trace_v11 (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
    INSERT INTO trace_v11(key, body)
      SELECT (r.key << 20) | t.seq, t.body FROM trace t JOIN runs_v11 r ON r.id = t.root_id
      WHERE t.seq >= 0 AND t.seq < 1048576;
    DROP TABLE steps;
    DROP TABLE trace;
    DROP TABLE runs;
    ALTER TABLE runs_v11 RENAME TO runs;
    ALTER TABLE steps_v11 RENAME TO steps;
    ALTER TABLE trace_v11 RENAME TO trace;
    CREATE INDEX runs_root_id ON runs(root_id);
    CREATE INDEX runs_status ON runs(status);
    CREATE INDEX runs_roots_status ON runs(parent_id, status) WHERE parent_id = '';
  )sql");
}

// Version 12: a run's steps and trace events in one table, `run_rows`, keyed by
// `(run key << 21) | (index << 1) | kind` (rows.hpp): a step's commit, which adds its step and
// its event, writes one leaf where it wrote the last leaf of two tables (issue 27). Rows of no
// stored run, unreadable already, are left behind, so that no later run given that key reads them.
void rows_side_by_side(Connection& db) {
  db.exec(R"sql(
    CREATE TABLE run_rows (key INTEGER PRIMARY KEY, body TEXT NOT NULL);
    INSERT INTO run_rows(key, body)
      SELECT ((s.key >> 20) << 21) | ((s.key & 1048575) << 1), s.body
        FROM steps s JOIN runs r ON r.key = s.key >> 20
      UNION ALL
      SELECT ((t.key >> 20) << 21) | ((t.key & 1048575) << 1) | 1, t.body
        FROM trace t JOIN runs r ON r.key = t.key >> 20
      ORDER BY 1;
    DROP TABLE steps;
    DROP TABLE trace;
  )sql");
}

// Version 13: fewer pages per fetch and per end (issue 27). The fencing-token counter is the last
// row of `leases` (leases.cpp), not a table of its own: a commit that takes a lease and a token
// writes the last leaf of one B-tree, where it wrote two. It starts at the greater of the old
// counter and every token stored, so a token granted after it is still greater than every one
// before. And runs_status becomes runs_children_status, of runs with a parent only: a root's
// status, in runs_roots_status already, moves one index entry, not two.
void fewer_pages_per_fetch(Connection& db) {
  db.exec(R"sql(
    INSERT INTO leases(key, owner, token, expires_at)
      SELECT CAST('fencing_token' AS BLOB), 'reactor',
             max(value, (SELECT coalesce(max(token), 0) FROM leases)), 9223372036854775807
      FROM counters WHERE name = 'fencing_token';
    DROP TABLE counters;

    DROP INDEX IF EXISTS runs_status;
    CREATE INDEX runs_children_status ON runs(status) WHERE parent_id <> '';
  )sql");
}

// Version 14: claims (issue 27). maps.claim: the elements released together as one run, whose
// commit files all their slots; 1, each element a run of its own, is every map before it. And
// map_slots.steps: a claimed element's steps, for its undos.
void claims(Connection& db) {
  db.exec(
      "ALTER TABLE maps ADD COLUMN claim INTEGER NOT NULL DEFAULT 1;"
      "ALTER TABLE map_slots ADD COLUMN steps TEXT NOT NULL DEFAULT ''");
}

}  // namespace

const std::vector<Migration>& migrations() {
  static const std::vector<Migration> list{
      {1, "runs, run_inputs, steps, trace, jobs, leases, counters", &create_v1},
      {2, "run headers name their steps; untouched steps have no row", &headers_name_their_steps},
      {3, "waiting runs; runs.wake_at, exec_token, exec_worker", &runs_wake_at},
      {4, "run headers count their steps and name none; maps, map_slots", &maps},
      {5, "runs.deliveries: deliveries since the run's last progress; maps.interrupted",
       &runs_deliveries},
      {6, "maps.cancelled, map_slots.interrupted: elements never run, lost executions per slot",
       &cancelled_elements},
      {7, "schedules: periodic starts", &schedules},
      {8,
       "hold_holders, rate_windows, rate_charges, period_marks, ordered_chains, "
       "ordered_members: coordination",
       &holds},
      {9, "runs_roots_status: root runs counted by status from an index", &roots_by_status},
      {10, "leases without a rowid; runs_roots_status of root runs only", &fewer_pages_per_commit},
      {11, "runs.key; steps and trace keyed by (run key << 20) | index", &integer_keyed_rows},
      {12, "run_rows: steps and trace side by side, keyed by (run key << 21) | index << 1 | kind",
       &rows_side_by_side},
      {13,
       "the fencing-token counter as the last row of leases, no counters table; "
       "runs_children_status of runs with a parent only, not runs_status",
       &fewer_pages_per_fetch},
      {14, "maps.claim, map_slots.steps: elements released together, as one run", &claims},
  };
  return list;
}

int latest_schema_version() { return migrations().back().version; }

int schema_version(Connection& db) {
  {
    Statement exists =
        db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'meta'");
    if (!exists.step()) return 0;
  }
  Statement st = db.prepare("SELECT value FROM meta WHERE key = 'schema_version'");
  if (!st.step()) return 0;
  return static_cast<int>(st.int64(0));
}

void migrate(Connection& db) {
  db.exec("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value NOT NULL)");
  const int current = schema_version(db);
  const int latest = latest_schema_version();
  if (current > latest) {
    throw SchemaTooNew("database schema version " + std::to_string(current) +
                       " is newer than this build supports (" + std::to_string(latest) + ")");
  }
  for (const Migration& m : migrations()) {
    if (m.version <= current) continue;
    m.apply(db);
  }
  if (current != latest) {
    db.prepare(
          "INSERT INTO meta(key, value) VALUES ('schema_version', ?) "
          "ON CONFLICT(key) DO UPDATE SET value = excluded.value")
        .bind(latest)
        .run();
  }
}

}  // namespace reactor::sqlite
