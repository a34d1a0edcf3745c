# The store_* functions of worker_env.sh for sqlite:// stores, through the
# sqlite3 command-line shell (Debian package sqlite3), on the tables of
# src/storage/sqlite/sqlite_schema.cpp. Run ids come from the tests, never
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
  sql "INSERT OR REPLACE INTO steps (run_id, idx, body) SELECT id, $2, 'not json at all' FROM runs WHERE id = '$1'"
}
store_set_schema_version() { sql "UPDATE runs SET schema_version = $2 WHERE id = '$1'"; }
store_set_header_reactor() { sql "UPDATE runs SET reactor = '$2' WHERE id = '$1'"; }
store_set_job_reactor() { sql "UPDATE jobs SET reactor = '$2' WHERE run_id = '$1'"; }
# No wait: a writer that is mid-commit holds the lock.
store_write_lock_free() {
  sqlite3 -cmd ".timeout 0" "$sqlite_file" "BEGIN IMMEDIATE; ROLLBACK;" >/dev/null 2>&1
}
