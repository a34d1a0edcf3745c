// The `reactor` command-line tool: one function per subcommand.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "worker_loop.hpp"

namespace reactor_cli {

// Where runs are stored when --storage is not given: the demo's SQLite file.
inline const char* kDefaultStorage = "sqlite://reactor.db";

struct DemoOptions {
  int orders = 40;
  bool log_events = false;  // --in-process only
  bool in_process = false;
};

// Runs a batch of order sagas and prints a summary: by default in the
// background on SQLite across two worker processes, one killed halfway.
// Returns 0 when every order ended as the example says it must and no step
// ran twice beyond the one in flight at the kill.
int run_demo(const DemoOptions& options);

struct StartOptions {
  std::string storage = kDefaultStorage;
  std::string reactor;
  std::string input_json = "{}";
  bool background = false;
  bool json = false;
};

// Starts one registered example reactor: waits and prints its result, or
// with --background prints its id at once.
int run_start(const StartOptions& options);

struct WorkerCliOptions {
  std::string storage = kDefaultStorage;
  WorkerLoopOptions loop;  // --threads, --lease-ttl, ... (worker_loop.hpp)
};

// Serves the example reactors until SIGTERM/SIGINT.
int run_worker_command(const WorkerCliOptions& options);

struct RunsOptions {
  std::string storage = kDefaultStorage;
  std::optional<std::string> status;
  std::size_t limit = 50;
  bool json = false;
};
int run_runs(const RunsOptions& options);

struct ShowOptions {
  std::string storage = kDefaultStorage;
  std::string run_id;
  bool json = false;
};
int run_show(const ShowOptions& options);

int run_sweep(const std::string& storage);

// Enqueues a resume job for a stored root run: an operator's nudge for a run
// that seems stuck. Harmless for a run that is executing (the job snoozes on
// its lease) or already ended (the job is acknowledged). Unknown id: 2.
int run_enqueue(const std::string& storage, const std::string& run_id);

}  // namespace reactor_cli
