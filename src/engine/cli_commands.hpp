// The built-in commands of cli_main (reactor/cli.hpp), one function each, and
// the engine on the store that each one opens.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "engine/cli_worker.hpp"
#include "reactor/cli.hpp"
#include "reactor/engine.hpp"

namespace reactor::cli {

// What every command of one cli_main call shares.
struct Context {
  Engine& definitions;  // whose registry holds the reactors to serve
  const CliOptions& options;
  std::string program;  // "reactor": the start of every message
  std::string storage;  // --storage
};

// Whether a command may make the store it names: only `start` and `worker` do.
enum class StoreUse { kMayCreate, kMustExist };

// An engine on the store ctx.storage names, built from ctx.options.engine with
// `durability`, serving every reactor of ctx.definitions. nullptr, the error
// printed as "<program> <command>: ...", when the store cannot be opened.
std::unique_ptr<Engine> open_store(const Context& ctx, const std::string& command, StoreUse use,
                                   const DurabilityOptions& durability);

struct StartOptions {
  std::string reactor;
  // Inline JSON, "@PATH" (a file) or "-" (stdin).
  std::string input = "{}";
  std::string input_file;  // --input-file PATH; exclusive with --input
  bool background = false;
  bool json = false;
  // --id: the run's id (a business key makes the start idempotent); empty: a fresh UUID.
  std::string run_id;
  // --async-wait-timeout: DurabilityOptions::async_wait_timeout; unset: its default.
  std::optional<double> async_wait_timeout_s;
};
int run_start(const Context& ctx, const StartOptions& options);

struct RunsOptions {
  std::optional<std::string> status;
  std::optional<std::string> reactor;
  std::size_t limit = 50;
  bool json = false;
  bool all = false;  // --all: the element runs of fan-out maps too
};
int run_runs(const Context& ctx, const RunsOptions& options);

// One stored run (a root or a map's element run): status, value or error, steps, the progress
// of each fan-out map it dispatched, the map an element belongs to, trace (cli_show.cpp).
int run_show(const Context& ctx, const std::string& run_id, bool json);
int run_sweep(const Context& ctx);
// Enqueues a resume job for a stored root run: an operator's nudge for a run
// that seems stuck. Harmless for a run that is executing (the job snoozes on
// its lease) or already ended (the job is acknowledged). Unknown id: 2.
int run_enqueue(const Context& ctx, const std::string& run_id);
// Serves the reactors until SIGTERM/SIGINT (cli_worker.hpp).
int run_worker(const Context& ctx, const WorkerLoopOptions& options);

}  // namespace reactor::cli
