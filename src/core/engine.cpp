#include "reactor/engine.hpp"

#include <random>

#include "execution/execution.hpp"
#include "execution/run_driver.hpp"

namespace reactor {

struct Engine::Impl {
  explicit Impl(EngineOptions o)
      : options(std::move(o)),
        pool(options.max_parallel_threads) {
    if (!options.clock) options.clock = SystemClock::instance();
  }

  std::uint64_t next_seed() {
    if (options.random_seed == 0) return std::random_device{}();
    return options.random_seed + seeds_used++;
  }

  EngineOptions options;
  ThreadPool pool;
  std::atomic<std::uint64_t> seeds_used{0};
};

namespace {

RunResult failed_before_start(const std::string& reactor, ErrorKind kind, std::string message,
                              const std::string& run_id = "") {
  RunResult r;
  r.run_id = run_id;
  r.reactor = reactor;
  r.status = RunStatus::kFailed;
  RunError e;
  e.kind = kind;
  e.reactor = reactor;
  e.message = std::move(message);
  e.retryable = false;
  r.error = std::move(e);
  return r;
}

}  // namespace

Engine::Engine(EngineOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {}
Engine::~Engine() = default;

Clock& Engine::clock() const { return *impl_->options.clock; }

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
    return failed_before_start(reactor, ErrorKind::kUnknownReactor,
                               "no reactor is registered as '" + reactor + "'");
  }
  return run(*def, std::move(inputs), options);
}

RunResult Engine::run(const Definition& definition, Value inputs, const RunOptions& options) {
  return resume(definition, create_run(definition, std::move(inputs), options.run_id), options);
}

RunResult Engine::resume(Run run, const RunOptions& options) {
  auto def = registry_.find(run.reactor);
  if (!def) {
    return failed_before_start(run.reactor, ErrorKind::kUnknownReactor,
                               "no reactor is registered as '" + run.reactor + "'", run.id);
  }
  return resume(*def, std::move(run), options);
}

RunResult Engine::resume(const Definition& definition, Run run, const RunOptions& options) {
  if (run.fingerprint != definition.fingerprint()) {
    return failed_before_start(run.reactor, ErrorKind::kDefinitionChanged,
                               "run " + run.id + " was started on a different definition of '" +
                                   run.reactor + "' (fingerprint " + run.fingerprint + ", now " +
                                   definition.fingerprint() + ")",
                               run.id);
  }
  if (!is_terminal(run.status)) {
    std::vector<std::shared_ptr<Observer>> observers = impl_->options.observers;
    for (const auto& o : definition.data()->observers) observers.push_back(o);
    Execution ex(run, clock(), ObserverHub(std::move(observers)), options, impl_->pool,
                 impl_->next_seed());
    RunDriver(ex, *definition.data(), run).drive();
  }
  return make_run_result(run);
}

}  // namespace reactor
