// The worker loop of `reactor worker` (cli_main): its command-line options, the
// engine and worker settings they make, and serving until SIGTERM or SIGINT —
// the first stops gracefully, a second at once — with one stderr line when it
// starts, one per unusual delivery and one when it stops. The benchmark worker
// (`reactor-bench worker`, bench/worker.cpp) serves through the same loop.
#pragma once

#include <signal.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reactor/durability.hpp"
#include "reactor/engine.hpp"
#include "reactor/worker.hpp"

namespace CLI {
class App;
}

namespace reactor::cli {

// Seconds in a Duration, for the options' defaults.
inline double seconds_of(Duration d) { return std::chrono::duration<double>(d).count(); }

struct WorkerLoopOptions {
  int threads = 1;
  // The library's defaults (DurabilityOptions::lease_ttl, WorkerOptions::sweep_interval): a
  // worker that dies has its runs recovered within about their sum.
  double lease_ttl_s = seconds_of(DurabilityOptions{}.lease_ttl);
  double sweep_interval_s = seconds_of(WorkerOptions{}.sweep_interval);
  // WorkerOptions::shutdown_timeout: the longest the graceful stop may take.
  double shutdown_timeout_s = seconds_of(WorkerOptions{}.shutdown_timeout);
  // WorkerOptions::visibility_timeout; unset: its default.
  std::optional<double> visibility_timeout_s;
  // Unset: the DurabilityOptions defaults.
  std::optional<double> snooze_delay_s;
  std::optional<int> snooze_max_attempts;
  std::optional<int> max_interrupted_executions;       // DurabilityOptions's
  std::optional<int> max_deliveries_without_progress;  // DurabilityOptions's
  std::optional<double> async_park_timeout_s;          // DurabilityOptions's
  // The reactors whose runs this worker serves; empty: every registered one.
  std::vector<std::string> reactors;
  // --metrics HOST:PORT: where run_worker serves `metrics` (WorkerOptions::metrics).
  std::string metrics_listen;
  std::shared_ptr<MetricsRegistry> metrics;
};

// --threads, --lease-ttl, --sweep-interval, --shutdown-timeout, --visibility-timeout,
// --snooze-delay, --snooze-max-attempts, --max-interrupted-executions,
// --max-deliveries-without-progress, --async-park-timeout and --reactors on `cmd`, each --help
// line with its default.
void add_worker_options(CLI::App& cmd, WorkerLoopOptions& options);

// `base` with the options' lease TTL, snooze settings and poison-pill limit.
DurabilityOptions durability_options(const WorkerLoopOptions& options, DurabilityOptions base = {});

// SIGTERM and SIGINT, blocked in the calling thread. Call it before any other
// thread starts (the engine's heartbeat thread included: every thread inherits
// the mask), so that serve() alone receives them.
sigset_t block_stop_signals();

// Serves `engine`'s runs with the options' threads, reactors, sweep interval
// and shutdown timeout until one of `stop_signals` arrives; then stops
// gracefully (Worker::stop()), or at once (Worker::stop_now()) when a second
// one arrives meanwhile, and reports. Every stderr line starts with `name`
// ("reactor worker"). Jobs acknowledged because their runs had ended (stale:
// duplicates, left over from a crash) are told in one line per burst
// ("acknowledged N stale jobs"), after the first; a snooze on a run this
// process itself executes (its own duplicate) is not told at all. `on_started`, when given, is
// called once the worker's threads are fetching; a non-empty return is an error: it is printed, the
// worker stops and serve() returns 1. An unknown reactor in `reactors`: 2.
int serve(Engine& engine, const WorkerLoopOptions& options, const sigset_t& stop_signals,
          const std::string& name, const std::function<std::string()>& on_started = {});

}  // namespace reactor::cli
