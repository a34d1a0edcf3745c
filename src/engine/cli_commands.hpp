// The built-in commands of cli_main (reactor/cli.hpp), one function each, and
// the engine on the store that each one opens.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "engine/cli_worker.hpp"
#include "reactor/cli.hpp"
#include "reactor/engine.hpp"

namespace reactor::cli {

// Where the store's URL came from: --storage wins over REACTOR_STORAGE, which wins over
// CliOptions::default_storage.
enum class StorageSource { kOption, kEnvironment, kDefault };

// The environment variable naming the store when --storage is not given.
inline constexpr const char* kStorageVariable = "REACTOR_STORAGE";

// The store when no --storage was given: $REACTOR_STORAGE when set and not empty, else
// `default_storage`; and which of the two it is.
std::pair<std::string, StorageSource> storage_from_environment(const std::string& default_storage);

// What every command of one cli_main call shares.
struct Context {
  Engine& definitions;  // whose registry holds the reactors to serve
  const CliOptions& options;
  std::string program;  // "reactor": the start of every message
  std::string storage;  // the store's URL, from `storage_source`
  StorageSource storage_source = StorageSource::kOption;
};

// Whether a command may make the store it names: `start` does; `worker` only when the store was
// named (--storage, REACTOR_STORAGE) or --create is given, never a default it guessed; the
// commands that read never do.
enum class StoreUse { kMayCreate, kMustExist };

// An engine on the store ctx.storage names, built from ctx.options.engine with
// `durability`, serving every reactor of ctx.definitions. nullptr, the error
// printed as "<program> <command>: ...", when the store cannot be opened. A store
// taken by default is named on stderr first ("storage: sqlite://reactor.db (default)").
std::unique_ptr<Engine> open_store(const Context& ctx, const std::string& command, StoreUse use,
                                   const DurabilityOptions& durability);

// The reactors ctx.definitions registers, nearest to `name` first: "A, B, C" or "none".
std::string registered_closest_first(const Context& ctx, const std::string& name);

struct StartOptions {
  std::string reactor;
  // Inline JSON, "@PATH" (a file) or "-" (stdin).
  std::string input = "{}";
  std::string input_file;  // --input-file PATH; exclusive with --input
  bool background = false;
  bool json = false;  // the run result as JSON; with --background {"id", "status"}
  // --id: the run's id (a business key makes the start idempotent); empty: a fresh UUID.
  std::string run_id;
  // --async-wait-timeout: DurabilityOptions::async_wait_timeout; unset: its default.
  std::optional<double> async_wait_timeout_s;
  // --wait: wait for async units even when no worker serves their queue
  // (DurabilityOptions::wait_without_workers).
  bool wait = false;
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
// its lease). Unknown id: 2. A run that ended, or one of a reactor not
// registered here, is refused (2) unless `force`: its job would only be
// acknowledged, or wait for a worker of another program.
int run_enqueue(const Context& ctx, const std::string& run_id, bool force);
// Serves the reactors until SIGTERM/SIGINT (cli_worker.hpp). `create`: make the store if it
// does not exist, even when its URL is the default.
int run_worker(const Context& ctx, const WorkerLoopOptions& options, bool create);
// The registered reactors: inputs (name, type, required, default), steps and queue; with
// `json` one JSON object per line.
int run_reactors(const Context& ctx, bool json);

}  // namespace reactor::cli
