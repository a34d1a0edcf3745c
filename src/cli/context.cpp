#include "cli/context.hpp"

#include <cstdlib>
#include <filesystem>
#include <stdexcept>

#include "base/suggest.hpp"
#include "cli/text.hpp"
#include "reactor/otlp_exporter.hpp"

namespace reactor::cli {

std::pair<std::string, StorageSource> storage_from_environment(const std::string& default_storage) {
  const char* named = std::getenv(kStorageVariable);
  if (named != nullptr && *named != '\0') return {named, StorageSource::kEnvironment};
  return {default_storage, StorageSource::kDefault};
}

std::unique_ptr<Engine> open_store(const Context& ctx, const std::string& command, StoreUse use,
                                   const DurabilityOptions& durability,
                                   std::shared_ptr<MetricsRegistry> metrics) {
  const bool guessed = ctx.storage_source == StorageSource::kDefault;
  // A store nobody named is said on stderr (stdout stays the command's output): a command run in
  // another directory must not serve or read a store there unnoticed.
  if (guessed) print_error("storage", ctx.storage + " (default)");
  OpenOptions open;
  open.clock = ctx.options.engine.clock;
  open.create = use == StoreUse::kMayCreate;
  Result<std::unique_ptr<Backend>> backend = open_backend(ctx.storage, open);
  if (const Status& s = backend.status(); !s.ok()) {
    std::string message = "cannot open storage: " + s.to_string();
    if (s.code() == StatusCode::kNotFound && command == "worker") {
      std::error_code ec;
      const std::string here = std::filesystem::current_path(ec).string();
      message += std::string("; ") + (guessed ? "the default store" : "the store") +
                 (here.empty() ? "" : " (in " + here + ")") +
                 " is not made by a worker unless asked: name the store with --storage URL or " +
                 kStorageVariable + "=URL, or add --create to make a new one";
    }
    print_error(ctx.program + " " + command, message);
    return nullptr;
  }
  EngineOptions options = ctx.options.engine;
  if (!add_otlp_exporter(ctx, command, options)) return nullptr;
  options.backend = std::move(backend).value();
  options.durability = durability;
  if (metrics) add_metrics(options, std::move(metrics));
  // Its messages are the program's: "reactor: worker: fetch failed: …".
  if (!options.logger) options.logger = stderr_logger(ctx.program);
  auto engine = std::make_unique<Engine>(std::move(options));
  const Registry& registered = ctx.definitions.registry();
  // The named rate limits first: a definition naming one is refused without it.
  for (auto& [name, windows] : registered.rate_limits().all()) {
    engine->registry().rate_limits().add(name, std::move(windows));
  }
  for (const std::string& name : registered.names()) {
    if (auto definition = registered.find(name)) engine->registry().add(*definition);
  }
  return engine;
}

bool add_otlp_exporter(const Context& ctx, const std::string& command, EngineOptions& options) {
  OtlpOptions otlp = otlp_options_from_env();
  if (!ctx.otlp_endpoint.empty()) otlp.endpoint = ctx.otlp_endpoint;
  if (otlp.endpoint.empty()) return true;
  try {
    options.observers.push_back(std::make_shared<OtlpExporter>(std::move(otlp)));
  } catch (const std::invalid_argument& e) {
    print_error(ctx.program + " " + command, std::string("--otlp-endpoint: ") + e.what());
    return false;
  }
  return true;
}

std::string registered_closest_first(const Context& ctx, const std::string& name) {
  std::string out;
  for (const std::string& n : closest_first(name, ctx.definitions.registry().names())) {
    out += (out.empty() ? "" : ", ") + n;
  }
  return out.empty() ? "none" : out;
}

}  // namespace reactor::cli
