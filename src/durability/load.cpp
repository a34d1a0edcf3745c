#include "durability/load.hpp"

#include "records/run_rows.hpp"

namespace reactor {

Status load_result(RunStore& store, const std::string& run_id, RunResult& out) {
  StoredRun stored;
  Status s = store.load_run(run_id, stored);
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
