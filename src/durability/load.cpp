#include "durability/load.hpp"

#include "durability/claims.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor {

namespace {

// A run failed for unreadable records keeps them as they were found (the evidence), so they stay
// unreadable, to the store itself (load_run answers Corruption) or to the codec; its header,
// rewritten when it failed, still says why, and that is what a reader needs.
bool header_of_corrupt_run(const StoredRun& stored, RunResult& out) {
  Run header;
  if (!records::decode_root_header(stored, header).ok() || !header.error ||
      header.error->kind != ErrorKind::kCorruptRecord) {
    return false;
  }
  header.steps.clear();
  out = make_run_result(std::move(header));
  return true;
}

}  // namespace

Status load_result(Backend& store, const Registry& registry, const std::string& run_id,
                   RunResult& out) {
  Result<StoredRun> loaded = store.load_run(run_id);
  Status s = loaded.status();
  if (s.code() == StatusCode::kNotFound) {
    if (std::optional<ElementOf> of = parse_element_run_id(run_id)) {
      Status claimed = read_claimed_element(store, registry, *of, out);
      if (claimed.code() != StatusCode::kNotFound) return claimed;
    }
    return s;
  }
  if (s.code() == StatusCode::kCorruption) {
    StoredRun header_only;
    Result<RunHeaderRow> header = store.load_header(run_id);
    if (header.ok()) header_only.headers.push_back(std::move(header).value());
    if (header.ok() && header_of_corrupt_run(header_only, out)) return Status::Ok();
    return s;
  }
  if (!s.ok()) return s;
  StoredRun stored = std::move(loaded).value();
  Run run;
  s = records::decode_run(stored, run);
  if (!s.ok()) return header_of_corrupt_run(stored, out) ? Status::Ok() : s;
  if (auto def = registry.find(run.reactor); def && def->fingerprint() == run.fingerprint) {
    records::name_steps(run, *def->data());
  }
  out = make_run_result(std::move(run));
  return Status::Ok();
}

}  // namespace reactor
