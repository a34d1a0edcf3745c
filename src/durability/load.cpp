#include "durability/load.hpp"

#include "records/codec.hpp"
#include "records/run_rows.hpp"

namespace reactor {

namespace {

// A run whose records the store itself cannot read (load_run answers Corruption), failed for
// it: its header alone still says why.
Status load_failed_header(RunStore& store, const std::string& run_id, const Status& why,
                          RunResult& out) {
  RunHeaderRow row;
  if (!store.load_header(run_id, row).ok()) return why;
  try {
    Run header = records::decode_header(row);
    if (!header.error || header.error->kind != ErrorKind::kCorruptRecord) return why;
    out = make_run_result(std::move(header));
    return Status::Ok();
  } catch (const std::exception&) {
    return why;
  }
}

}  // namespace

Status load_result(RunStore& store, const std::string& run_id, RunResult& out) {
  StoredRun stored;
  Status s = store.load_run(run_id, stored);
  if (s.code() == StatusCode::kCorruption) return load_failed_header(store, run_id, s, out);
  if (!s.ok()) return s;
  Run run;
  s = records::decode_run(stored, run);
  if (!s.ok()) {
    // A run failed for unreadable records keeps them as they were found (the
    // evidence), so they stay unreadable; its header, rewritten when it
    // failed, still says why, and that is what a reader needs.
    Run header;
    if (!records::decode_root_header(stored, header).ok() || !header.error ||
        header.error->kind != ErrorKind::kCorruptRecord) {
      return s;
    }
    header.steps.clear();
    run = std::move(header);
  }
  out = make_run_result(std::move(run));
  return Status::Ok();
}

}  // namespace reactor
