// What the built-in commands of cli_main (reactor/cli.hpp) share: the store's URL and where it
// came from, the engine on that store each of them opens, and the reactors registered.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "reactor/cli.hpp"
#include "reactor/engine.hpp"
#include "reactor/worker.hpp"

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
  // --otlp-endpoint: the engine exports traces there (reactor/otlp_exporter.hpp); empty: to
  // $OTEL_EXPORTER_OTLP_ENDPOINT when set, else nowhere.
  std::string otlp_endpoint{};
};

// Whether a command may make the store it names: `start` does; `worker` only when the store was
// named (--storage, REACTOR_STORAGE) or --create is given, never a default it guessed; the
// commands that read never do.
enum class StoreUse { kMayCreate, kMustExist };

// An engine on the store ctx.storage names, built from ctx.options.engine with
// `durability`, serving every reactor of ctx.definitions. nullptr, the error
// printed as "<program> <command>: ...", when the store cannot be opened. A store
// taken by default is named on stderr first ("storage: sqlite://reactor.db (default)").
// With `metrics`, its runs and store requests are counted there (add_metrics).
std::unique_ptr<Engine> open_store(const Context& ctx, const std::string& command, StoreUse use,
                                   const DurabilityOptions& durability,
                                   std::shared_ptr<MetricsRegistry> metrics = nullptr);

// The OTLP exporter --otlp-endpoint or $OTEL_EXPORTER_OTLP_ENDPOINT asks for, added to
// `options`' observers; false, the error printed, for an endpoint that is no http:// URL.
bool add_otlp_exporter(const Context& ctx, const std::string& command, EngineOptions& options);

// The reactors ctx.definitions registers, nearest to `name` first: "A, B, C" or "none".
std::string registered_closest_first(const Context& ctx, const std::string& name);

}  // namespace reactor::cli
