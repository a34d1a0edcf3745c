// The commands that work on a store: worker, runs, sweep, enqueue (show: cli_show.cpp); and
// the engine on the store each of them opens.
#include "engine/cli_commands.hpp"

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <iostream>

#include "base/suggest.hpp"
#include "durability/durable_env.hpp"
#include "engine/cli_text.hpp"
#include "reactor/inspector.hpp"

namespace reactor::cli {

std::pair<std::string, StorageSource> storage_from_environment(const std::string& default_storage) {
  const char* named = std::getenv(kStorageVariable);
  if (named != nullptr && *named != '\0') return {named, StorageSource::kEnvironment};
  return {default_storage, StorageSource::kDefault};
}

std::unique_ptr<Engine> open_store(const Context& ctx, const std::string& command, StoreUse use,
                                   const DurabilityOptions& durability) {
  const bool guessed = ctx.storage_source == StorageSource::kDefault;
  // A store nobody named is said on stderr (stdout stays the command's output): a command run in
  // another directory must not serve or read a store there unnoticed.
  if (guessed) print_error("storage", ctx.storage + " (default)");
  OpenOptions open;
  open.clock = ctx.options.engine.clock;
  open.create = use == StoreUse::kMayCreate;
  std::unique_ptr<Backend> backend;
  if (Status s = open_backend(ctx.storage, open, backend); !s.ok()) {
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
  options.backend = std::move(backend);
  options.durability = durability;
  // Its messages are the program's: "reactor: worker: fetch failed: …".
  if (!options.logger) options.logger = stderr_logger(ctx.program);
  auto engine = std::make_unique<Engine>(std::move(options));
  const Registry& registered = ctx.definitions.registry();
  for (const std::string& name : registered.names()) {
    if (auto definition = registered.find(name)) engine->registry().add(*definition);
  }
  return engine;
}

std::string registered_closest_first(const Context& ctx, const std::string& name) {
  std::string out;
  for (const std::string& n : closest_first(name, ctx.definitions.registry().names())) {
    out += (out.empty() ? "" : ", ") + n;
  }
  return out.empty() ? "none" : out;
}

int run_worker(const Context& ctx, const WorkerLoopOptions& o, bool create) {
  // Before any thread starts (the store's included): they all inherit the mask.
  const sigset_t stop_signals = block_stop_signals();
  // A URL somebody named may be a new store; the default, in whatever directory the worker was
  // started, is made only on request: a worker serving an empty store it made by mistake idles
  // while the runs it should serve wait in another.
  const bool may_create = create || ctx.storage_source != StorageSource::kDefault;
  auto engine = open_store(ctx, "worker", may_create ? StoreUse::kMayCreate : StoreUse::kMustExist,
                           durability_options(o, ctx.options.engine.durability));
  if (!engine) return 2;
  return serve(*engine, o, stop_signals, ctx.program + " worker");
}

namespace {

// The status named `name`, or none; the valid names in `valid`.
std::optional<RunStatus> status_named(const std::string& name, std::string& valid) {
  std::optional<RunStatus> found;
  for (RunStatus s : all_run_statuses()) {
    valid += (valid.empty() ? "" : ", ") + std::string(to_string(s));
    if (name == to_string(s)) found = s;
  }
  return found;
}

void print_table(const RunListing& listing) {
  // A UUID wide at least; an element run's id ("<root>:sum[12]") is longer.
  int id_width = 36, reactor_width = 7, status_width = 6;
  for (const RunSummary& r : listing.runs) {
    id_width = std::max(id_width, static_cast<int>(r.id.size()));
    reactor_width = std::max(reactor_width, static_cast<int>(r.reactor.size()));
    status_width =
        std::max(status_width, static_cast<int>(std::string(to_string(r.status)).size()));
  }
  std::printf("%-*s  %-*s  %-*s  %-20s  %s\n", id_width, "RUN", reactor_width, "REACTOR",
              status_width, "STATUS", "CREATED", "UPDATED");
  for (const RunSummary& r : listing.runs) {
    std::printf("%-*s  %-*s  %-*s  %-20s  %s\n", id_width, r.id.c_str(), reactor_width,
                r.reactor.c_str(), status_width, to_string(r.status),
                format_time(r.created_at_ms).c_str(), format_time(r.updated_at_ms).c_str());
  }
}

}  // namespace

int run_runs(const Context& ctx, const RunsOptions& o) {
  const std::string who = ctx.program + " runs";
  RunFilter filter;
  filter.limit = o.limit;
  filter.reactor = o.reactor;
  filter.elements = o.all;  // counted as listed: "N of M runs shown" is of the same runs
  if (o.status) {
    std::string valid;
    filter.status = status_named(*o.status, valid);
    if (!filter.status) {
      print_error(who, "unknown status '" + *o.status + "' (valid: " + valid + ")");
      return 2;
    }
  }
  auto engine = open_store(ctx, "runs", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  RunListing listing;
  if (Status s = Inspector(*engine->backend()).list_runs(filter, listing); !s.ok()) {
    print_error(who, s.to_string());
    return 1;
  }
  if (o.json) {
    for (const RunSummary& r : listing.runs) {
      std::cout << Value{{"id", r.id},
                         {"reactor", r.reactor},
                         {"status", to_string(r.status)},
                         {"created_at_ms", r.created_at_ms},
                         {"updated_at_ms", r.updated_at_ms}}
                       .dump()
                << "\n";
    }
  } else if (listing.runs.empty()) {
    std::printf("no runs\n");
  } else {
    print_table(listing);
  }
  if (listing.truncated()) {
    // With --json on stderr, so that stdout stays one run per line.
    std::fprintf(o.json ? stderr : stdout, "%s of %s runs shown; use --limit to see more\n",
                 format_count(listing.runs.size()).c_str(), format_count(listing.total).c_str());
  }
  return 0;
}

int run_sweep(const Context& ctx) {
  auto engine = open_store(ctx, "sweep", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  std::size_t requeued = 0, purged = 0;
  if (Status s = engine->sweep_once(requeued, purged); !s.ok()) {
    print_error(ctx.program + " sweep", s.to_string());
    return 1;
  }
  std::printf("requeued %zu run(s), purged %zu expired run(s)\n", requeued, purged);
  return 0;
}

int run_enqueue(const Context& ctx, const std::string& run_id, bool force) {
  const std::string who = ctx.program + " enqueue";
  auto engine = open_store(ctx, "enqueue", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  Backend& backend = *engine->backend();
  RunHeaderRow run;
  if (Status s = backend.load_header(run_id, run); !s.ok()) {
    print_error(who, s.to_string());
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  if (!run.parent_id.empty()) {
    print_error(who, "run " + run_id + " is a child of run " + run.root_id + "; enqueue the root");
    return 2;
  }
  if (!force && is_terminal(run.status)) {
    print_error(who, "run " + run_id + " is " + to_string(run.status) +
                         ": it has ended, and its job would only be acknowledged (--force "
                         "enqueues one anyway)");
    return 2;
  }
  if (!force && !engine->registry().find(run.reactor)) {
    print_error(who, "run " + run_id + " is a run of reactor '" + run.reactor +
                         "', which is not registered here (registered: " +
                         registered_closest_first(ctx, run.reactor) +
                         "); --force enqueues it anyway, for a worker of another program");
    return 2;
  }
  // On the reactor's queue, as the engine routes it (DurabilityOptions::queue_for).
  CommitRequest c;
  c.enqueue.push_back(JobSpec{engine->durable_env()->queue_for(run.reactor), JobKind::kResume,
                              run.id, run.reactor, to_unix_ms(engine->clock().now()), 0});
  if (Status s = backend.commit(c); !s.ok()) {
    print_error(who, s.to_string());
    return 1;
  }
  std::printf("enqueued a resume job for run %s (%s, %s)\n", run.id.c_str(), run.reactor.c_str(),
              to_string(run.status));
  return 0;
}

namespace {

// "integer, required", "string, default \"EUR\"", "any, optional, redacted".
std::string describe_input(const InputSpec& input) {
  const Schema& schema = input.schema;
  std::string out = to_string(schema.type());
  if (schema.default_val()) {
    out += ", default " +
           (schema.is_redacted() ? std::string("[REDACTED]") : schema.default_val()->dump());
  } else {
    out += schema.is_optional() ? ", optional" : ", required";
  }
  if (schema.is_redacted()) out += ", redacted";
  return out;
}

Value input_json(const InputSpec& input) {
  const Schema& schema = input.schema;
  Value j{{"name", input.name},
          {"type", to_string(schema.type())},
          {"required", !schema.is_optional()},
          {"redacted", schema.is_redacted()}};
  if (schema.default_val()) {
    j["default"] = schema.is_redacted() ? Value("[REDACTED]") : *schema.default_val();
  }
  return j;
}

const char* kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::kCompose:
      return "compose";
    case StepKind::kMap:
      return "map";
    case StepKind::kAsync:
      return "async";
    default:
      return "step";
  }
}

// "reserve, charge, ship"; a step that is not a plain one says what it is: "sum (map)".
std::string describe_steps(const Definition& def) {
  std::string out;
  for (const StepSpec& step : def.steps()) {
    out += (out.empty() ? "" : ", ") + step.name;
    if (step.kind != StepKind::kStep) out += std::string(" (") + kind_name(step.kind) + ")";
  }
  return out.empty() ? "none" : out;
}

}  // namespace

int run_reactors(const Context& ctx, bool json) {
  const Registry& registry = ctx.definitions.registry();
  const auto& queue_for = ctx.options.engine.durability.queue_for;
  const std::vector<std::string> names = registry.names();
  if (names.empty() && !json) std::printf("no reactors registered\n");
  for (const std::string& name : names) {
    std::optional<Definition> def = registry.find(name);
    if (!def) continue;
    const std::string queue = queue_for ? queue_for(name) : name;
    if (json) {
      Value inputs = Value::array(), steps = Value::array();
      for (const InputSpec& input : def->inputs()) inputs.push_back(input_json(input));
      for (const StepSpec& step : def->steps()) {
        steps.push_back(Value{{"name", step.name}, {"kind", kind_name(step.kind)}});
      }
      std::cout
          << Value{{"name", name}, {"queue", queue}, {"inputs", inputs}, {"steps", steps}}.dump()
          << "\n";
      continue;
    }
    std::printf("%s\n  queue   %s\n", name.c_str(), queue.c_str());
    if (def->inputs().empty()) std::printf("  inputs  none\n");
    for (std::size_t i = 0; i < def->inputs().size(); ++i) {
      const InputSpec& input = def->inputs()[i];
      std::printf("  %-7s %s (%s)\n", i == 0 ? "inputs" : "", input.name.c_str(),
                  describe_input(input).c_str());
    }
    std::printf("  steps   %s\n", describe_steps(*def).c_str());
  }
  return 0;
}

}  // namespace reactor::cli
