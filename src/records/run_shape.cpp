#include "records/run_shape.hpp"

#include <algorithm>
#include <climits>
#include <cstdint>

#include "reactor/limits.hpp"
#include "records/value_limits.hpp"

namespace reactor::records {

namespace {

// `level`: the run's, the root's being 1; definitions compose at most kMaxRunNesting levels.
std::optional<std::string> shape_error(const Run& run, const DefinitionData& def,
                                       std::size_t max_bytes, int level) {
  const auto of_run = [&](const std::string& what) {
    return "run " + run.id + " (" + def.name + (run.path.empty() ? "" : " at " + run.path) +
           "): " + what;
  };
  if (level > kMaxRunNesting) return of_run("runs nest deeper than the definition composes");
  if (run.steps.size() != def.steps.size()) {
    return of_run("the record has " + std::to_string(run.steps.size()) + " steps, the definition " +
                  std::to_string(def.steps.size()));
  }
  if (run.failed_step && *run.failed_step >= run.steps.size()) {
    return of_run("failed_step " + std::to_string(*run.failed_step) + " is not a step");
  }
  if (auto e = run_times_error(run)) return e;
  if (level > 1 &&
      (run.status == RunStatus::kEnqueued || run.status == RunStatus::kWaiting || run.suspension)) {
    return of_run("a child run is " + std::string(to_string(run.status)) +
                  (run.suspension ? ", suspended" : "") + ": only a root is enqueued or waits");
  }
  if (auto e = value_limit_error(run.inputs, max_bytes, "its inputs")) return of_run(*e);
  if (run.error) {
    if (auto e = value_limit_error(run.error->details, max_bytes, "its error's details")) {
      return of_run(*e);
    }
  }
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    const StepRecord& rec = run.steps[i];
    const StepSpec& spec = def.steps[i];
    const auto of_step = [&](const std::string& what) {
      return of_run("step " + std::to_string(i) + " ('" + spec.name + "'): " + what);
    };
    if (rec.name != spec.name) return of_step("the record names it '" + rec.name + "'");
    // ++attempts must not overflow.
    if (rec.attempts < 0 || rec.attempts == INT_MAX) {
      return of_step("attempts " + std::to_string(rec.attempts) + " is out of range");
    }
    if (auto e = value_limit_error(rec.result, max_bytes, "its result")) return of_step(*e);
    const std::size_t most_children =
        spec.kind == StepKind::kStep || spec.kind == StepKind::kInterrupt ? 0
        : spec.kind != StepKind::kMap                                     ? 1
                                                                          : kMaxMapElements;
    if (rec.children.size() > most_children) {
      return of_step("the record holds " + std::to_string(rec.children.size()) +
                     " child runs, the step has at most " + std::to_string(most_children));
    }
    for (const Run& child : rec.children) {
      if (!spec.child) return of_step("it holds a child run, and has no child definition");
      if (child.fingerprint != spec.child->fingerprint) {
        return of_step("child run " + child.id + " was started on another definition");
      }
      if (auto e = shape_error(child, *spec.child, max_bytes, level + 1)) return e;
    }
  }
  return std::nullopt;
}

bool time_in_range(std::int64_t ms) { return ms >= -kMaxTimeMs && ms <= kMaxTimeMs; }

}  // namespace

std::optional<std::string> run_times_error(const Run& run) {
  const auto of_run = [&](const std::string& what) {
    return "run " + run.id + (run.path.empty() ? "" : " at " + run.path) + ": " + what;
  };
  if (run.suspension && !time_in_range(run.suspension->until_ms)) {
    return of_run("its suspension ends at " + std::to_string(run.suspension->until_ms) +
                  ", out of range");
  }
  for (const StepRecord& rec : run.steps) {
    if (!time_in_range(rec.retry_at_ms)) {
      return of_run("step '" + rec.name + "' retries at " + std::to_string(rec.retry_at_ms) +
                    ", out of range");
    }
  }
  return std::nullopt;
}

void name_steps(Run& run, const DefinitionData& def) {
  const std::size_t n = std::min(run.steps.size(), def.steps.size());
  for (std::size_t i = 0; i < n; ++i) {
    StepRecord& rec = run.steps[i];
    const StepSpec& spec = def.steps[i];
    if (rec.name.empty()) rec.name = spec.name;
    if (!spec.child) continue;
    for (Run& child : rec.children) name_steps(child, *spec.child);
  }
}

std::optional<std::string> run_shape_error(const Run& run, const DefinitionData& def,
                                           std::size_t max_value_bytes) {
  return shape_error(run, def, max_value_bytes, 1);
}

}  // namespace reactor::records
