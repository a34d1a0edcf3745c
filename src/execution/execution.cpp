#include "execution/execution.hpp"

#include <cstdint>

namespace reactor {

Execution::Execution(Run& root, const ExecuteEnv& env, const ExecuteOptions& options,
                     bool root_is_new)
    : root_(root),
      clock_(env.clock),
      observers_(env.observers, env.logger),
      overrides_(env.overrides != nullptr && !env.overrides->empty() ? env.overrides : nullptr),
      options_(options),
      fan_out_(options.port != nullptr ? options.port->fan_out() : nullptr),
      max_value_bytes_(env.max_value_bytes != 0 ? env.max_value_bytes : SIZE_MAX),
      pool_(env.pool),
      unwinding_(options.port),
      origin_(root.element_of ? root.element_of->origin() : root.root_id),
      jitter_(env.jitter_seed) {
  // Trace events up to here are stored already, unless the run is new.
  delta_.trace_begin = root_is_new ? 0 : root.trace.size();
  if (root_is_new) delta_.created.push_back(&root);
}

// One element's step ("tickets[1]/email") first, then the step of every element
// ("tickets/email"): the paths of reactor/definition.hpp, the same in-process and durable. An
// async_step's body runs as the one step of its unit, named as the step ("notify[0]/notify"):
// the async_step's own path ("notify") names it.
const RunFn* Execution::override_for(const std::string& path) const {
  if (overrides_ == nullptr) return nullptr;
  auto it = overrides_->find(path);
  if (it != overrides_->end() || path.find('[') == std::string::npos) {
    return it == overrides_->end() ? nullptr : &it->second;
  }
  const std::string every = without_indices(path);
  it = overrides_->find(every);
  const auto slash = every.rfind('/');
  if (it == overrides_->end() && slash != std::string::npos) {
    const std::string unit = every.substr(0, slash);
    const std::string last = every.substr(slash + 1);
    if (unit == last || unit.ends_with("/" + last)) it = overrides_->find(unit);
  }
  return it == overrides_->end() ? nullptr : &it->second;
}

void Execution::trace(TraceType type, const std::string& step, int attempt, std::string outcome,
                      std::string message, std::optional<std::int64_t> at_ms) {
  root_.trace.push_back(TraceEvent{type, step, attempt, std::move(outcome), std::move(message),
                                   at_ms ? *at_ms : now_ms()});
}

void Execution::trace_as(TraceType type, const std::string& step, int attempt, std::string outcome,
                         std::string message, const Executor& by) {
  root_.trace.push_back(TraceEvent{type, step, attempt, std::move(outcome), std::move(message),
                                   now_ms(), by.id, by.epoch});
}

void Execution::checkpoint(bool force, std::optional<std::int64_t> at_ms) {
  const std::int64_t now = at_ms ? *at_ms : now_ms();
  root_.updated_at_ms = now;
  if (unwinding_.stopped()) return;
  if (options_.port == nullptr) {
    delta_.clear(root_.trace.size());
    return;
  }
  const auto min_gap =
      std::chrono::duration_cast<std::chrono::milliseconds>(options_.checkpoint_min_interval)
          .count();
  if (!force && min_gap > 0 && now - last_commit_ms_ < min_gap) return;
  Status s = options_.port->write(root_, delta_);
  if (!s.ok()) {
    unwinding_.stop(s);
    return;
  }
  last_commit_ms_ = now;
  delta_.clear(root_.trace.size());
}

void Execution::leave_unfinished() {
  delta_.leave_unfinished = true;
  touch_header(root_);
  checkpoint(/*force=*/true);
}

bool Execution::may_start_body() {
  if (unwinding_.stopped()) return false;
  if (options_.port == nullptr) return true;
  Status s = options_.port->may_start();
  if (s.ok()) return true;
  unwinding_.stop(s);
  return false;
}

}  // namespace reactor
