#include "reactor/run_result.hpp"

#include <ostream>
#include <string>

#include "reactor/run.hpp"

namespace reactor {

namespace {

// Whether `path` (a child run's path) is already complete below `prefix`. Run::path is meant to
// be the full path inside the root ("payment/items[2]"); a bare name ("items[2]") is accepted
// too, and placed under its parent. Bare names never contain '/', so the two never mix up.
std::string child_prefix(const std::string& prefix, const std::string& child_path) {
  const bool full = !prefix.empty() && child_path.compare(0, prefix.size(), prefix) == 0;
  return (full ? child_path : prefix + child_path) + "/";
}

// Each step, then its children's steps right after it, so a reader sees a composed step's
// inner work where the step sits in the definition.
void flatten(const Run& run, const std::string& prefix, std::vector<StepOutcome>& out) {
  for (const StepRecord& record : run.steps) {
    out.push_back(StepOutcome{prefix + record.name, record.status, record.result, record.attempts,
                              record.interrupted});
    for (const Run& child : record.children) flatten(child, child_prefix(prefix, child.path), out);
  }
}

std::size_t count_steps(const Run& run) {
  std::size_t n = run.steps.size();
  for (const StepRecord& record : run.steps) {
    for (const Run& child : record.children) n += count_steps(child);
  }
  return n;
}

void flatten_move(Run& run, const std::string& prefix, std::vector<StepOutcome>& out) {
  for (StepRecord& record : run.steps) {
    out.push_back(StepOutcome{prefix.empty() ? std::move(record.name) : prefix + record.name,
                              record.status, std::move(record.result), record.attempts,
                              record.interrupted});
    for (Run& child : record.children) flatten_move(child, child_prefix(prefix, child.path), out);
  }
}

}  // namespace

const StepOutcome* RunResult::step(const std::string& path) const {
  for (const StepOutcome& s : steps) {
    if (s.step == path) return &s;
  }
  return nullptr;
}

RunResult make_run_result(const Run& run) {
  RunResult r;
  r.run_id = run.id;
  r.reactor = run.reactor;
  r.status = run.status;
  r.value = run.value;
  r.error = run.error;
  r.trace = run.trace;
  r.retried_from = run.retried_from;
  r.retries = run.retries;
  flatten(run, "", r.steps);
  return r;
}

RunResult make_run_result(Run&& run) {
  RunResult r;
  r.run_id = std::move(run.id);
  r.reactor = std::move(run.reactor);
  r.status = run.status;
  r.value = std::move(run.value);
  r.error = std::move(run.error);
  r.trace = std::move(run.trace);
  r.retried_from = std::move(run.retried_from);
  r.retries = std::move(run.retries);
  r.steps.reserve(count_steps(run));
  flatten_move(run, "", r.steps);
  return r;
}

void PrintTo(const RunResult& r, std::ostream* os) {
  *os << "RunResult{" << r.reactor << " run " << r.run_id << ", status " << to_string(r.status);
  if (r.error) {
    *os << ", error " << to_string(r.error->kind) << " at '" << r.error->step
        << "': " << r.error->message;
  } else if (!r.value.is_null()) {
    *os << ", value " << r.value.dump();
  }
  *os << ", trace \"" << r.trace_summary() << "\"}";
}

}  // namespace reactor
