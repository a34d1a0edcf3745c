# The store_* functions of worker_env.sh for sqlite:// stores, through the
# sqlite3 command-line shell (Debian package sqlite3), on the tables of
# src/storage/sqlite/schema.cpp (a step's row of run_rows is keyed by its
# run's key and its index: (key << 21) | (idx << 1)). Run ids come from the tests, never
# from outside, so they are spliced into the SQL as they are.
sqlite_file=${db#sqlite:}
sqlite_file=${sqlite_file#//}
sqlite_file=${sqlite_file%%\?*}
# Workers hold the write lock for a commit at a time: wait for it, as they do.
sql() { sqlite3 -cmd ".timeout 10000" "$sqlite_file" "$1"; }

store_jobs() { sql "SELECT count(*) FROM jobs WHERE run_id = '$1'"; }
store_corrupt_header() { sql "UPDATE runs SET body = '{\"path\": [garbage' WHERE id = '$1'"; }
# A status this build does not know: the backend cannot read the row.
store_garble_header() { sql "UPDATE runs SET status = 'garbled' WHERE id = '$1'"; }
store_corrupt_step() {
  # A step still as created has no row yet: the garbage is its first.
  sql "INSERT OR REPLACE INTO run_rows (key, body) SELECT (key << 21) | ($2 << 1), 'not json at all' FROM runs WHERE id = '$1'"
}
store_set_schema_version() { sql "UPDATE runs SET schema_version = $2 WHERE id = '$1'"; }
store_set_header_reactor() { sql "UPDATE runs SET reactor = '$2' WHERE id = '$1'"; }
store_set_job_reactor() { sql "UPDATE jobs SET reactor = '$2' WHERE run_id = '$1'"; }
store_set_step() {
  sql "INSERT OR REPLACE INTO run_rows (key, body) SELECT (key << 21) | ($2 << 1), '$3' FROM runs WHERE id = '$1'"
}
store_replace_in_body() {
  [[ $(sql "SELECT instr(body, '$2') > 0 FROM runs WHERE id = '$1'") == 1 ]] ||
    { echo "store_replace_in_body: the body of run $1 has no $2" >&2; return 1; }
  sql "UPDATE runs SET body = replace(body, '$2', '$3') WHERE id = '$1'"
}
store_corrupt_fingerprint() {
  sql "UPDATE runs SET fingerprint = fingerprint || CAST(X'ff' AS TEXT) WHERE id = '$1'"
}
# The children are copies of the run's header, each a level deeper (their paths grow for the
# first 70 levels, past any nesting a definition may compose), all in one transaction.
store_chain_children() {
  sql "WITH RECURSIVE chain(n, path) AS (
         SELECT 1, 'reserve'
         UNION ALL SELECT n + 1, CASE WHEN n < 70 THEN path || '/reserve' ELSE path END
         FROM chain WHERE n < $2)
       INSERT INTO runs (id, root_id, parent_id, reactor, status, fingerprint, schema_version, body,
                         updated_at, expires_at)
       SELECT '$1-c' || n, '$1', CASE WHEN n = 1 THEN '$1' ELSE '$1-c' || (n - 1) END, r.reactor,
              'running', r.fingerprint, r.schema_version,
              replace(r.body, '"path":""', '"path":"' || path || '"'), r.updated_at,
              r.expires_at
       FROM chain, (SELECT * FROM runs WHERE id = '$1') r"
}
store_map() {
  sql "SELECT state, total, released, done, failed, undone FROM maps WHERE map_id = '$1'" | tr '|' ' '
}
store_map_slots() {
  sql "SELECT idx, state FROM map_slots WHERE map_id = '$1' ORDER BY idx" | tr '|' ' '
}
store_deep_failed_slot() {
  local changed
  changed=$(sql "UPDATE map_slots SET state = 'failed',
                   body = '{\"kind\":\"step_failed\",\"message\":\"deep\",\"details\":' ||
                          replace(hex(zeroblob($3)), '00', '[') ||
                          replace(hex(zeroblob($3)), '00', ']') || '}'
                 WHERE map_id = '$1' AND idx = $2; SELECT changes();")
  [[ $changed == 1 ]]
}
# No wait: a writer that is mid-commit holds the lock.
store_write_lock_free() {
  sqlite3 -cmd ".timeout 0" "$sqlite_file" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1
}
