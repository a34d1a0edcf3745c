// Execution: what every level of one run tree shares while it executes — the
// root run, the lock that guards it, the clock, observers, the port and its options,
// and what changed since the last checkpoint.
#pragma once

#include <atomic>
#include <memory>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "base/jitter.hpp"
#include "execution/checkpoint_delta.hpp"
#include "execution/execute.hpp"
#include "execution/observer_hub.hpp"
#include "execution/run_mutex.hpp"
#include "execution/thread_pool.hpp"
#include "execution/unwinding.hpp"
#include "reactor/clock.hpp"
#include "reactor/run.hpp"

namespace reactor {

class Execution {
 public:
  Execution(Run& root, const ExecuteEnv& env, const ExecuteOptions& options, bool root_is_new);

  Run& root() { return root_; }
  Clock& clock() { return clock_; }
  const ObserverHub& observers() const { return observers_; }
  const ExecuteOptions& options() const { return options_; }
  ThreadPool& pool() { return pool_; }
  // The step bodies to replace, by path (tests), or nullptr.
  const RunFn* override_for(const std::string& path) const;

  // Guards every field of every Run in the tree. Step bodies, user rollback
  // code and observers run without it.
  RunMutex& mutex() { return mu_; }

  std::int64_t now_ms() const { return to_unix_ms(clock_.now()); }

  // Appends to the root's trace. Caller holds mutex().
  // `at_ms` lets the hot path reuse the time it already read for the record.
  void trace(TraceType type, const std::string& step, int attempt, std::string outcome,
             std::string message = {}, std::optional<std::int64_t> at_ms = std::nullopt);
  // The same, for what another execution did.
  void trace_as(TraceType type, const std::string& step, int attempt, std::string outcome,
                std::string message, const Executor& by);
  // An event of another run of the tree (a fan-out map's element), as it was traced there.
  void append_trace(TraceEvent e) { root_.trace.push_back(std::move(e)); }

  // Record what changed, for the next checkpoint. Caller holds mutex().
  // `derived`: the record only copies what the store holds already (CheckpointDelta::derived):
  // written with the next commit, which it does not call for by itself.
  void touch_step(const Run& run, std::size_t i, bool derived = false) {
    delta_.steps.emplace_back(&run, i);
    if (derived) ++delta_.derived;
  }
  // A step marked as started: written with the next commit, which it does not
  // call for by itself (has_unsaved_steps).
  void touch_mark(Run& run, std::size_t i) {
    delta_.steps.emplace_back(&run, i);
    delta_.started.emplace_back(&run, i);
  }
  void touch_header(const Run& run) { delta_.headers.push_back(&run); }
  void touch_created(const Run& run) { delta_.created.push_back(&run); }

  // Hands what changed to the commit hook. Caller holds mutex(). Mid-run
  // checkpoints may be coalesced (checkpoint_min_interval) unless `force`:
  // terminal states and hand-offs always force. Once a commit is refused the
  // whole tree stops where it is (Unwinding::stopped()). `at_ms`: the time the caller read
  // just before, with no user code since (a clock read is 29 ns, a twelfth of a null step).
  void checkpoint(bool force = false, std::optional<std::int64_t> at_ms = std::nullopt);
  // Whether a step record or a new run awaits its commit: what must be
  // durable before another step starts.
  bool has_unsaved_steps() const {
    return delta_.steps.size() > delta_.started.size() + delta_.derived || !delta_.created.empty();
  }
  // Whether user code may start now (ExecutionPort::may_start); when not, the
  // tree is stopped with its reason. Caller holds mutex().
  bool may_start_body();

  // The root id a step of this tree is named under (idempotency keys,
  // observers): the root's, or for an element run of a fan-out map its origin's.
  const std::string& origin() const { return origin_; }
  FanOut* fan_out() const { return fan_out_; }
  ExecutionPort* port() const { return options_.port; }
  // Why the tree unwinds, when it does (stopped, suspended, leaving).
  Unwinding& unwinding() { return unwinding_; }
  const Unwinding& unwinding() const { return unwinding_; }
  // The write that leaves the run unfinished. Caller holds mutex().
  void leave_unfinished();

  // Uniform in [0, max]. Thread-safe.
  Duration jitter(Duration max) { return jitter_(max); }

  // The most bytes a value a step returns may take as JSON (ExecuteEnv::max_value_bytes).
  std::size_t max_value_bytes() const { return max_value_bytes_; }

 private:
  Run& root_;
  Clock& clock_;
  ObserverHub observers_;
  const std::map<std::string, RunFn>* overrides_;
  const ExecuteOptions& options_;
  FanOut* fan_out_;
  std::size_t max_value_bytes_;
  ThreadPool& pool_;
  RunMutex mu_;
  CheckpointDelta delta_;
  std::int64_t last_commit_ms_ = 0;
  Unwinding unwinding_;
  std::string origin_;
  Jitter jitter_;
};

}  // namespace reactor
