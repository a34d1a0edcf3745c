#include "storage/sqlite/rows.hpp"

#include <algorithm>

#include "reactor/leases.hpp"
#include "reactor/limits.hpp"
#include "storage/commit_refusals.hpp"
#include "storage/sqlite/row_fields.hpp"

namespace reactor::sqlite {

const std::string& header_columns() {
  static const std::string columns = sqlite::columns_of<RunHeaderRow>(kHeaderFields);
  return columns;
}

// "?, ?, …" for n parameters.
std::string parameters(std::size_t n) {
  std::string out;
  for (std::size_t i = 0; i < n; ++i) out += i ? ", ?" : "?";
  return out;
}

std::size_t count_columns(const std::string& list) {
  return static_cast<std::size_t>(std::count(list.begin(), list.end(), ',')) + 1;
}

// The SQL of read_run and of the commit spells the key's layout out.
static_assert(kRunKeyShift == 21 && row_key(1, RowKind::kStep, kRowIndexLimit - 1) == 4194302 &&
              row_key(0, RowKind::kTrace, 3) == 7);
// Every stored run's steps and trace fit under its key.
static_assert(kMaxRunSteps < kRowIndexLimit && kMaxTraceEvents < kRowIndexLimit);

std::optional<std::int64_t> run_key(Connection& db, const std::string& id) {
  Statement st = db.prepare("SELECT key FROM runs WHERE id = ?");
  st.bind(id);
  if (!st.step()) return std::nullopt;
  return st.int64(0);
}

Status read_header(const Statement& st, RunHeaderRow& h) {
  try {
    sqlite::FieldColumns columns(st, 0);
    kHeaderFields(h, columns);
  } catch (const std::invalid_argument& e) {
    return Status::Corruption("run " + h.id + ": " + e.what());
  }
  return Status::Ok();
}

Status read_headers(Statement& st, std::vector<RunHeaderRow>& out) {
  while (st.step()) {
    RunHeaderRow h;
    if (Status s = read_header(st, h); !s.ok()) return s;
    out.push_back(std::move(h));
  }
  return Status::Ok();
}

Status read_run(Connection& db, const std::string& root_id, StoredRun& run) {
  run = StoredRun{};
  {
    Statement st =
        db.prepare("SELECT " + header_columns() + " FROM runs WHERE id = ? AND root_id = id");
    st.bind(root_id);
    if (Status r = read_headers(st, run.headers); !r.ok()) return r;
  }
  if (run.headers.empty()) return Status::NotFound("run " + root_id + " not found");
  {
    Statement st = db.prepare("SELECT " + header_columns() +
                              " FROM runs WHERE root_id = ?1 AND id <> ?1 ORDER BY id");
    st.bind(root_id);
    if (Status r = read_headers(st, run.headers); !r.ok()) return r;
  }
  // Rows of the root first, then of each child by id: the order of run.headers.
  {
    Statement st = db.prepare(
        "SELECT run_id, inputs FROM run_inputs "
        "WHERE run_id IN (SELECT id FROM runs WHERE root_id = ?1 OR id = ?1) "
        "ORDER BY run_id <> ?1, run_id");
    st.bind(root_id);
    while (st.step()) run.inputs.push_back({st.text(0), st.text(1)});
  }
  // Each run's rows are the range of keys under its own (rows.hpp); a trace is its root's.
  {
    Statement st = db.prepare(
        "SELECT r.id, x.key & 1, (x.key & 2097151) >> 1, x.body FROM runs r JOIN run_rows x "
        "ON x.key BETWEEN r.key << 21 AND (r.key << 21) | 2097151 "
        "WHERE r.root_id = ?1 OR r.id = ?1 ORDER BY r.id <> ?1, r.id, x.key");
    st.bind(root_id);
    while (st.step()) {
      const auto index = static_cast<std::uint64_t>(st.int64(2));
      if (st.int64(1) == static_cast<std::int64_t>(RowKind::kStep)) {
        run.steps.push_back({st.text(0), static_cast<std::uint32_t>(index), st.text(3)});
      } else if (st.text(0) == root_id) {
        run.trace.push_back({root_id, index, st.text(3)});
      }
    }
  }
  {
    Statement st = db.prepare("SELECT token FROM leases WHERE key = ?");
    st.bind(run_lease_key(root_id));
    if (st.step()) run.fencing_token = static_cast<std::uint64_t>(st.int64(0));
  }
  return Status::Ok();
}

Status check_fence(Connection& db, const std::string& run_id, std::uint64_t token) {
  Statement st = db.prepare("SELECT token FROM leases WHERE key = ?");
  st.bind(run_lease_key(run_id));
  if (!st.step() || static_cast<std::uint64_t>(st.int64(0)) != token) {
    return storage::fenced_out(run_id, token);
  }
  return Status::Ok();
}

}  // namespace reactor::sqlite
