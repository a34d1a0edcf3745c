#include "reactor/inspector.hpp"

#include <algorithm>

#include "records/codec.hpp"

namespace reactor {

namespace {

// The header's creation time lives in its body, which only the record codec reads.
std::int64_t created_at_ms(const RunHeaderRow& row) {
  try {
    return records::decode_header(row).created_at_ms;
  } catch (const std::exception&) {
    return 0;  // unreadable: listed without it (the run fails when a worker meets it)
  }
}

}  // namespace

Status Inspector::list_runs(const RunFilter& filter, RunListing& out) const {
  out = RunListing{};
  std::vector<RunHeaderRow> rows;
  if (Status s = store_.list_runs(filter, rows); !s.ok()) return s;
  std::size_t total = 0;
  if (Status s = store_.count_runs(filter, total); !s.ok()) return s;
  out.runs.reserve(rows.size());
  for (const RunHeaderRow& row : rows) {
    out.runs.push_back(
        RunSummary{row.id, row.reactor, row.status, created_at_ms(row), row.updated_at_ms});
  }
  out.total = std::max(total, out.runs.size());
  return Status::Ok();
}

}  // namespace reactor
