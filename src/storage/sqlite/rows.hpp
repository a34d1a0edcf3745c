// What the SQLite backend's facets share: the columns of its tables, as the
// records' field lists name them, and the reads and lease grants that more
// than one facet makes inside its own transaction.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/status.hpp"
#include "records/fields.hpp"
#include "storage/sqlite/connection.hpp"

namespace reactor::sqlite {

// A header row's fields and a job's, as the columns of `runs` and `jobs` (row_fields.hpp).
inline constexpr auto kHeaderFields = [](auto& h, auto& v) { records::header_row_fields(h, v); };
inline constexpr auto kJobSpecFields = [](auto& j, auto& v) { records::fields(j, v); };
inline constexpr auto kJobFields = [](auto& j, auto& v) { records::fields(j, v); };
inline constexpr auto kMapFields = [](auto& m, auto& v) { records::fields(m, v); };
inline constexpr auto kScheduleFields = [](auto& s, auto& v) { records::fields(s, v); };

// The columns of `runs`, in kHeaderFields order: "status, updated_at, id, …".
const std::string& header_columns();
// "?, ?, …" for n parameters.
std::string parameters(std::size_t n);
// The number of columns in a list of them.
std::size_t count_columns(const std::string& list);

// A run's steps and its trace events are rows of one table, `run_rows` (schema version 12), keyed
// by one integer: the key of their run (`runs.key`, its INTEGER PRIMARY KEY), above kRowIndexBits
// bits of the step's index or the event's seq, above one bit that tells an event from a step. A
// run's rows are one range of keys, a new run's come after every other's, and step i lies beside
// event i: a step's commit, which adds its step and its event, writes one leaf.
inline constexpr int kRowIndexBits = 20;
inline constexpr std::uint64_t kRowIndexLimit = std::uint64_t{1} << kRowIndexBits;
inline constexpr int kRunKeyShift = kRowIndexBits + 1;
enum class RowKind : std::int64_t { kStep = 0, kTrace = 1 };
constexpr std::int64_t row_key(std::int64_t run_key, RowKind kind, std::uint64_t index) {
  return (run_key << kRunKeyShift) | static_cast<std::int64_t>(index << 1) |
         static_cast<std::int64_t>(kind);
}
// The key of run `id`, or nullopt when no such run is stored.
std::optional<std::int64_t> run_key(Connection& db, const std::string& id);

// Reads the columns of header_columns(). Corruption for a status this build does not know.
Status read_header(const Statement& st, RunHeaderRow& h);
Status read_headers(Statement& st, std::vector<RunHeaderRow>& out);
// A root run and all its children, as load_run returns them, inside the
// caller's transaction.
Status read_run(Connection& db, const std::string& root_id, StoredRun& run);

// The fence of a commit and of a take: Ok when `token` is the newest of the lease of `run_id`
// ("run:<run_id>"), its holder's or not; otherwise storage::fenced_out. Expiry alone does not
// fence.
Status check_fence(Connection& db, const std::string& run_id, std::uint64_t token);

// Takes `key` for `owner` when its lease is free (no row, released or expired), with a token
// from the global counter. Otherwise `out` describes the holder.
bool try_acquire(Connection& db, const std::string& key, const std::string& owner,
                 std::int64_t ttl_ms, std::int64_t now, Lease& out);

// A SQLite error as a Status naming the store and the operation.
Status error_status(const SqliteError& e, const std::string& url, const char* what, int attempts);
// Sleeps between whole-transaction retries.
void backoff(int attempt);

}  // namespace reactor::sqlite
