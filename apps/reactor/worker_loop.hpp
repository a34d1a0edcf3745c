// The worker loop of `reactor worker`: its command-line options, the engine and
// worker settings they make, and serving until SIGTERM or SIGINT with one
// stderr line per unusual delivery and a report on the way out. The benchmark
// worker (`reactor-bench worker`, bench/worker.cpp) serves through the same loop.
#pragma once

#include <signal.h>

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reactor/reactor.hpp"

namespace CLI {
class App;
}

namespace reactor_cli {

struct WorkerLoopOptions {
  int threads = 1;
  double lease_ttl_s = 60;
  double sweep_interval_s = 30;
  // Unset: the DurabilityOptions defaults.
  std::optional<double> snooze_delay_s;
  std::optional<int> snooze_max_attempts;
  // The reactors whose runs this worker serves; empty: every registered one.
  std::vector<std::string> reactors;
};

// --threads, --lease-ttl, --sweep-interval, --snooze-delay,
// --snooze-max-attempts and --reactors on `cmd`.
void add_worker_options(CLI::App& cmd, WorkerLoopOptions& options);

// The engine's lease TTL and snooze settings.
reactor::DurabilityOptions durability_options(const WorkerLoopOptions& options);

// SIGTERM and SIGINT, blocked in the calling thread. Call it before any other
// thread starts (the engine's heartbeat thread included: every thread inherits
// the mask), so that the thread calling serve() alone receives them.
sigset_t block_stop_signals();

// Serves `engine`'s runs with the options' threads, reactors and sweep interval
// until one of `stop_signals` arrives, then stops gracefully (a run in flight
// finishes its delivery) and reports. Every stderr line starts with `name`
// ("reactor worker"). `on_started`, when given, is called once the worker's
// threads are fetching; a non-empty return is an error: it is printed, the
// worker stops and serve() returns 1. An unknown reactor in `reactors`: 2.
int serve(reactor::Engine& engine, const WorkerLoopOptions& options, const sigset_t& stop_signals,
          const std::string& name, const std::function<std::string()>& on_started = {});

}  // namespace reactor_cli
