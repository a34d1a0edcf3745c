#include "reactor/engine.hpp"

#include <unistd.h>

#include <cstdio>
#include <random>

#include "base/jitter.hpp"
#include "base/run_errors.hpp"
#include "definition/coordination_of.hpp"
#include "definition/inputs.hpp"
#include "durability/durable_env.hpp"
#include "durability/inline_jobs.hpp"
#include "durability/lease_keeper.hpp"
#include "durability/load.hpp"
#include "durability/signals.hpp"
#include "durability/start.hpp"
#include "durability/sweeper.hpp"
#include "durability/sync_run.hpp"
#include "engine/engine_access.hpp"
#include "execution/execute.hpp"
#include "execution/observer_hub.hpp"
#include "reactor/ids.hpp"
#include "reactor/trace_context.hpp"
#include "records/run_shape.hpp"
#include "records/value_limits.hpp"

namespace reactor {

namespace {

// Why `inputs` are past max_value_bytes or kMaxValueDepth (InvalidArgument), or nothing.
std::optional<std::string> inputs_limit_error(const Value& inputs, const DurabilityOptions& o) {
  return records::value_limit_error(inputs, o.max_value_bytes, "the inputs");
}

// The result of a start whose inputs were refused, as the run driver reports them: every field
// error, and the inputs as given, redacted.
RunResult invalid_inputs(const std::string& run_id, const Definition& def, const Value& inputs,
                         std::vector<FieldError> errors) {
  RunResult r = failed_result(run_id, def.name(), ErrorKind::kInputInvalid,
                              "invalid inputs: " + describe(errors));
  r.error->validation_errors = std::move(errors);
  r.error->inputs = redact_inputs(*def.data(), inputs);
  return r;
}

// An in-process execution whose every write is handed to RunOptions::on_checkpoint (a test's
// snapshots): nothing is stored.
class CheckpointCallback final : public ExecutionPort {
 public:
  explicit CheckpointCallback(const std::function<Status(const Run&)>& fn) : fn_(fn) {}
  Status write(Run& root, const CheckpointDelta&) override { return fn_(root); }

 private:
  const std::function<Status(const Run&)>& fn_;
};

}  // namespace

struct Engine::Impl {
  Impl(EngineOptions o, Registry& registry)
      : options(std::move(o)), pool(options.max_parallel_threads) {
    if (!options.clock) options.clock = SystemClock::instance();
    if (!options.logger) options.logger = stderr_logger();
    // Seeded once: a random_device per run costs microseconds on some VMs.
    base_seed = options.random_seed != 0
                    ? options.random_seed
                    : (std::uint64_t{std::random_device{}()} << 32) ^ std::random_device{}();
    if (options.backend) open_durable(registry);
  }

  void open_durable(Registry& registry) {
    keeper = std::make_unique<LeaseKeeper>(*options.backend, *options.clock);
    // Built in place: its step counter is atomic, so it can be neither copied nor moved.
    durable = std::make_unique<DurableEnv>(
        registry, *options.backend, *options.clock, options.durability, *keeper,
        [this](Run& run, const Definition& def, const ExecuteOptions& x, bool run_is_new) {
          return execute(run, def, nullptr, x, run_is_new);
        },
        [this](Run& run, const Definition& def, const ExecuteOptions& x,
               std::vector<RollbackFailure>& failures) {
          return execute_undo(run, def, env_for(def, nullptr), x, failures);
        },
        [this](Duration max) { return snooze_jitter(max); });
    durable->worker_id = process_id();
    durable->observe = [this](const Definition& def, const std::function<void(Observer&)>& fn) {
      ExecuteEnv env = env_for(def, nullptr);
      if (!env.observers.empty()) ObserverHub(env.observers, env.logger).notify("coordination", fn);
    };
  }

  // "<host>:<pid>": who this process is in trace events and run headers. No quote or
  // backslash (FetchRequest::worker): a host name has none.
  static std::string process_id() {
    char host[256] = {};
    if (gethostname(host, sizeof host - 1) != 0) std::snprintf(host, sizeof host, "unknown");
    std::string id = std::string(host) + ":" + std::to_string(getpid());
    std::erase_if(id, [](char c) { return c == '"' || c == '\\'; });
    return id;
  }

  ExecuteOutcome execute(Run& run, const Definition& def, const RunOptions* run_options,
                         const ExecuteOptions& x, bool root_is_new) {
    return execute_run(run, def, env_for(def, run_options), x, root_is_new);
  }

  ExecuteEnv env_for(const Definition& def, const RunOptions* run_options) {
    std::vector<std::shared_ptr<Observer>> observers = options.observers;
    for (const auto& o : def.data()->observers) observers.push_back(o);
    const std::map<std::string, RunFn>* overrides = run_options && !run_options->overrides.empty()
                                                        ? &run_options->overrides
                                                        : &options.step_overrides;
    return ExecuteEnv{*options.clock,
                      std::move(observers),
                      *options.logger,
                      overrides,
                      pool,
                      next_seed(),
                      options.durability.max_value_bytes};
  }

  std::uint64_t next_seed() { return base_seed + seeds_used++; }

  EngineOptions options;
  ThreadPool pool;
  std::uint64_t base_seed = 0;
  std::atomic<std::uint64_t> seeds_used{0};
  Jitter snooze_jitter{std::random_device{}()};
  std::unique_ptr<LeaseKeeper> keeper;
  std::unique_ptr<DurableEnv> durable;
};

DurableEnv* EngineAccess::durable_env(const Engine& engine) { return engine.impl_->durable.get(); }

std::string Engine::queue_for(const std::string& reactor) const {
  return queue_of(registry_, impl_->options.durability, reactor);
}

std::string Engine::worker_id() const {
  return impl_->durable ? impl_->durable->worker_id : std::string();
}

bool Engine::hands_off_unserved(const std::string& reactor) const {
  const std::optional<Definition> def = registry_.find(reactor);
  return def && impl_->durable &&
         caller_wait(*impl_->durable, *def->data()) == CallerWait::kNobodyServes;
}

Engine::Engine(EngineOptions options)
    : impl_(std::make_unique<Impl>(std::move(options), registry_)) {}
Engine::~Engine() = default;

Clock& Engine::clock() const { return *impl_->options.clock; }
Logger& Engine::logger() const { return *impl_->options.logger; }

Backend* Engine::backend() const { return impl_->options.backend.get(); }

Run Engine::create_run(const Definition& definition, Value inputs,
                       const std::string& run_id) const {
  Run run;
  run.id = run_id.empty() ? new_run_id() : run_id;
  run.reactor = definition.name();
  run.root_id = run.id;
  run.fingerprint = definition.fingerprint();
  run.inputs = std::move(inputs);
  run.steps.resize(definition.steps().size());
  for (std::size_t i = 0; i < run.steps.size(); ++i) {
    run.steps[i].name = definition.steps()[i].name;
  }
  run.created_at_ms = run.updated_at_ms = to_unix_ms(clock().now());
  return run;
}

RunResult Engine::run(const std::string& reactor, Value inputs, const RunOptions& options) {
  auto def = registry_.find(reactor);
  if (!def) {
    return failed_result("", reactor, ErrorKind::kUnknownReactor,
                         "no reactor is registered as '" + reactor + "'");
  }
  return run(*def, std::move(inputs), options);
}

RunResult Engine::run(const Definition& definition, Value inputs, const RunOptions& options) {
  // Refused before anything copies or stores them: a value past the limits would be a record
  // no worker can read.
  if (auto why = inputs_limit_error(inputs, impl_->options.durability)) {
    return failed_result(options.run_id, definition.name(), ErrorKind::kInputInvalid, *why);
  }
  if (!options.run_id.empty()) {
    if (std::string why = run_id_error(options.run_id); !why.empty()) {
      return failed_result("", definition.name(), ErrorKind::kInputInvalid, why);
    }
  }
  if (!options.traceparent.empty()) {
    if (Result<TraceContext> tp = parse_traceparent(options.traceparent); !tp.ok()) {
      return failed_result(options.run_id, definition.name(), ErrorKind::kInputInvalid,
                           tp.status().message());
    }
  }
  if (!impl_->durable && declares_coordination(*definition.data())) {
    return failed_result(options.run_id, definition.name(), ErrorKind::kCoordinationKey,
                         "reactor '" + definition.name() +
                             "' declares coordination (locks, semaphores, rate limits, periods, "
                             "ordered locks), which needs a store: open the engine with a backend "
                             "(\"memory:\" for one process)");
  }
  if (impl_->durable && options.overrides.empty() && !options.on_checkpoint) {
    // Refused before the run is created: a durable start with invalid inputs stores nothing, as
    // run_in_background stores nothing (the run driver would store it failed, steps pending).
    if (std::vector<FieldError> errors = validate_inputs(*definition.data(), inputs);
        !errors.empty()) {
      return invalid_inputs(options.run_id, definition, inputs, std::move(errors));
    }
    Run run = create_run(definition, std::move(inputs), options.run_id);
    run.trace_parent = options.traceparent;
    DurableEnv& env = *impl_->durable;
    RunResult r = run_synchronously(env, definition, std::move(run));
    // A fan-out map or the hand-off point handed the run to the workers; inline jobs are those
    // workers. (A run stopped by a refused commit is unfinished too, and says so in its error.)
    if (!is_terminal(r.status) && !r.error && env.options.inline_jobs &&
        drain_inline(env, env.queue_for(definition.name())).ok()) {
      // Else the waiting run as it was handed off.
      if (Result<RunResult> found = find(r.run_id); found.ok()) r = std::move(found).value();
    }
    return r;
  }
  Run run = create_run(definition, std::move(inputs), options.run_id);
  run.trace_parent = options.traceparent;
  return resume(definition, std::move(run), options);
}

Status Engine::run_due_jobs(const std::string& reactor) {
  if (!impl_->durable) return Status::InvalidArgument("run_due_jobs needs a durable engine");
  if (!registry_.find(reactor)) {
    return Status::NotFound("no reactor is registered as '" + reactor + "'");
  }
  DurableEnv& env = *impl_->durable;
  return drain_inline(env, env.queue_for(reactor));
}

RunResult Engine::resume(Run run, const RunOptions& options) {
  auto def = registry_.find(run.reactor);
  if (!def) {
    return failed_result(run.id, run.reactor, ErrorKind::kUnknownReactor,
                         "no reactor is registered as '" + run.reactor + "'");
  }
  return resume(*def, std::move(run), options);
}

RunResult Engine::resume(const Definition& definition, Run run, const RunOptions& options) {
  if (run.fingerprint != definition.fingerprint()) {
    return failed_result(run.id, run.reactor, ErrorKind::kDefinitionChanged,
                         "run " + run.id + " was started on a different definition of '" +
                             run.reactor + "' (fingerprint " + run.fingerprint + ", now " +
                             definition.fingerprint() + ")");
  }
  // A snapshot can parse and still not be a run of this graph: the executor indexes by it.
  if (auto why = records::run_shape_error(run, *definition.data(),
                                          impl_->options.durability.max_value_bytes)) {
    return failed_result(run.id, run.reactor, ErrorKind::kCorruptRecord, *why);
  }
  if (!is_terminal(run.status)) {
    CheckpointCallback port(options.on_checkpoint);
    ExecuteOptions x;
    if (options.on_checkpoint) x.port = &port;
    impl_->execute(run, definition, &options, x, false);
  }
  return make_run_result(std::move(run));
}

Result<std::string> Engine::run_in_background(const std::string& reactor, Value inputs,
                                              const BackgroundOptions& options) {
  if (!impl_->durable) {
    return Status::InvalidArgument("run_in_background needs an engine with a backend");
  }
  auto def = registry_.find(reactor);
  if (!def) return Status::NotFound("no reactor is registered as '" + reactor + "'");
  // Validated here, in the caller: a bad input is the caller's error, not a
  // failed run discovered later by a worker.
  if (auto why = inputs_limit_error(inputs, impl_->options.durability)) {
    return Status::InvalidArgument(*why);
  }
  if (!options.run_id.empty()) {
    if (std::string why = run_id_error(options.run_id); !why.empty()) {
      return Status::InvalidArgument(why);
    }
  }
  if (!options.traceparent.empty()) {
    if (Result<TraceContext> tp = parse_traceparent(options.traceparent); !tp.ok()) {
      return tp.status();
    }
  }
  std::vector<FieldError> errors = validate_inputs(*def->data(), inputs);
  if (!errors.empty()) return Status::InvalidArgument("invalid inputs: " + describe(errors));
  Run run = create_run(*def, std::move(inputs), options.run_id);
  run.trace_parent = options.traceparent;
  DurableEnv& env = *impl_->durable;
  std::int64_t start_at_ms = 0;
  if (options.start_at) {
    start_at_ms = to_unix_ms(*options.start_at);
  } else if (options.delay > Duration::zero()) {
    start_at_ms = to_unix_ms(clock().now() + options.delay);
  }
  Status s = persist_background_run(env, run, start_at_ms);
  if (s.code() == StatusCode::kAlreadyExists) s = match_existing(env.backend, run);
  if (!s.ok()) return s;
  if (env.options.inline_jobs) {
    if (Status drained = drain_inline(env, env.queue_for(run.reactor)); !drained.ok()) {
      return drained;
    }
  }
  return std::move(run.id);
}

BackgroundBatch Engine::run_many_in_background(const std::string& reactor,
                                               std::vector<Value> inputs) {
  if (!impl_->durable) {
    return {{}, Status::InvalidArgument("run_many_in_background needs an engine with a backend")};
  }
  auto def = registry_.find(reactor);
  if (!def) return {{}, Status::NotFound("no reactor is registered as '" + reactor + "'")};
  // All validated before anything is written: a batch with a bad input is
  // refused whole, so the caller never has to find out which runs started.
  std::string invalid;
  for (std::size_t i = 0; i < inputs.size(); ++i) {
    if (auto why = inputs_limit_error(inputs[i], impl_->options.durability)) {
      invalid += "; [" + std::to_string(i) + "] " + *why;
      continue;
    }
    std::vector<FieldError> errors = validate_inputs(*def->data(), inputs[i]);
    if (!errors.empty()) invalid += "; [" + std::to_string(i) + "] " + describe(errors);
  }
  if (!invalid.empty()) {
    return {{}, Status::InvalidArgument("invalid inputs: " + invalid.substr(2))};
  }
  std::vector<Run> runs;
  runs.reserve(inputs.size());
  for (auto& in : inputs) runs.push_back(create_run(*def, std::move(in)));
  std::size_t persisted = 0;
  BackgroundBatch batch;
  batch.status = persist_background_runs(*impl_->durable, runs, persisted);
  batch.run_ids.reserve(persisted);
  for (std::size_t i = 0; i < persisted; ++i) batch.run_ids.push_back(std::move(runs[i].id));
  return batch;
}

Result<SweepResult> Engine::sweep_once() {
  if (!impl_->durable) return Status::InvalidArgument("sweep needs an engine with a backend");
  DurableEnv& env = *impl_->durable;
  Sweeper sweeper(env.backend, env.clock, std::chrono::seconds(1), 1000,
                  [&env](const std::string& r) { return env.queue_for(r); });
  SweepReport report = sweeper.sweep_now();
  if (!report.status.ok()) return report.status;
  return SweepResult{report.requeued, report.purged};
}

Result<RunResult> Engine::find(const std::string& run_id) {
  if (!impl_->durable) return Status::InvalidArgument("find needs an engine with a backend");
  RunResult out;
  if (Status s = load_result(impl_->durable->backend, impl_->durable->registry, run_id, out);
      !s.ok()) {
    return s;
  }
  return out;
}

Result<RunResult> Engine::resume_interrupt(const std::string& run_id, const std::string& step,
                                           Value payload, const ResumeOptions& options) {
  if (!impl_->durable) {
    return Status::InvalidArgument("resume_interrupt needs an engine with a backend");
  }
  return reactor::resume_interrupt(*impl_->durable,
                                   ResumeAsk{run_id, step, std::move(payload), options.run_inline});
}

Result<RunResult> Engine::resume_by_correlation(const std::string& correlation_id, Value payload,
                                                const ResumeOptions& options) {
  if (!impl_->durable) {
    return Status::InvalidArgument("resume_by_correlation needs an engine with a backend");
  }
  return reactor::resume_by_correlation(*impl_->durable, correlation_id, std::move(payload),
                                        options.run_inline);
}

}  // namespace reactor
