// Worker: fetch loops on N threads plus the sweeper, over one backend.
#include "reactor/worker.hpp"

#include <algorithm>
#include <condition_variable>
#include <csignal>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <thread>

#include "durability/delivery.hpp"
#include "durability/durable_env.hpp"
#include "durability/presence.hpp"
#include "durability/schedules.hpp"
#include "durability/sweeper.hpp"
#include "engine/engine_access.hpp"
#include "engine/worker_metrics.hpp"

namespace reactor {

namespace {

std::string unknown_reactor(const Registry& registry, const std::string& name) {
  std::string known;
  for (const std::string& n : registry.names()) known += (known.empty() ? "" : ", ") + n;
  return "unknown reactor '" + name + "' (registered: " + known + ")";
}

}  // namespace

struct Worker::Impl {
  Impl(Engine& e, WorkerOptions o) : engine(e), options(std::move(o)) {
    if (EngineAccess::durable_env(engine) == nullptr) {
      throw std::invalid_argument("a Worker needs an engine with a backend");
    }
    DurableEnv& env = *EngineAccess::durable_env(engine);
    if (options.visibility_timeout <= Duration::zero()) {
      options.visibility_timeout = env.options.lease_ttl * 5;
    }
    if (options.queues.empty()) {
      const Registry& registry = engine.registry();
      for (const auto& name : options.reactors.empty() ? registry.names() : options.reactors) {
        if (!registry.find(name)) throw std::invalid_argument(unknown_reactor(registry, name));
        options.queues.push_back(env.queue_for(name));
      }
    }
    sweeper = std::make_unique<Sweeper>(env.backend, env.clock, options.sweep_interval,
                                        options.sweep_limit,
                                        [&env](const std::string& r) { return env.queue_for(r); });
    presence = std::make_unique<PresenceKeeper>(
        env.backend, options.queues, env.worker_id + "/" + new_run_id(), env.options.lease_ttl);
  }

  void fetch_loop(std::stop_token stop, InFlight& in_flight);
  bool execute(DurableEnv& env, const Delivery& d, const std::string& owner, TimePoint asked_at,
               NextDelivery& ahead, InFlight& in_flight);
  void put_back_ahead(DurableEnv& env, NextDelivery& ahead);
  void sweep_loop(std::stop_token stop);
  void schedule_loop(std::stop_token stop);
  void presence_loop(std::stop_token stop);
  void count(DeliveryOutcome o);
  void thread_done();
  void abandon_in_flight();

  Engine& engine;
  WorkerOptions options;
  std::unique_ptr<Sweeper> sweeper;
  std::unique_ptr<PresenceKeeper> presence;  // who serves these queues, for callers that ask
  std::vector<std::jthread> threads;
  // One per fetch thread: what it is executing, for stop_now().
  std::vector<std::unique_ptr<InFlight>> in_flight;
  // Set by stop(): runs in flight are handed back after their step.
  std::atomic<bool> releasing{false};
  // Real time, not the engine's clock: a shutdown bounds a real process's stop.
  std::optional<std::chrono::steady_clock::time_point> stop_deadline;
  std::mutex done_mu;
  std::condition_variable done_cv;
  std::size_t threads_done = 0;
  mutable std::mutex mu;
  WorkerStats stats;
  // The engine's step count and the store's request count when start() ran:
  // stats() reports what came after.
  std::uint64_t durable_steps_at_start = 0;
  std::uint64_t round_trips_at_start = 0;
  std::unique_ptr<WorkerMetrics> metrics;  // with WorkerOptions::metrics
};

void Worker::Impl::count(DeliveryOutcome o) {
  std::lock_guard lock(mu);
  ++stats.jobs;
  switch (o) {
    case DeliveryOutcome::kFinished:
      ++stats.runs_finished;
      break;
    case DeliveryOutcome::kSnoozed:
      ++stats.snoozed;
      break;
    case DeliveryOutcome::kNotServed:
      ++stats.not_served;
      break;
    case DeliveryOutcome::kReleased:
      ++stats.released;
      break;
    case DeliveryOutcome::kLeaseLost:
      ++stats.lease_lost;
      break;
    default:
      break;
  }
}

void Worker::Impl::thread_done() {
  std::lock_guard lock(done_mu);
  ++threads_done;
  done_cv.notify_all();
}

void Worker::Impl::abandon_in_flight() {
  DurableEnv& env = *EngineAccess::durable_env(engine);
  for (auto& slot : in_flight) {
    Status s = abandon(env, *slot);
    if (!s.ok()) {
      // Its job becomes visible again after the visibility timeout, its lease lapses.
      engine.logger().log(LogLevel::kWarning,
                          "worker: could not hand back a run in flight: " + s.to_string());
    }
  }
}

void Worker::Impl::fetch_loop(std::stop_token stop, InFlight& in_flight) {
  DurableEnv& env = *EngineAccess::durable_env(engine);
  // Idle back-off: start short so a fresh job is picked up at once, double
  // up to poll_interval while the queues stay empty. A backend whose wait an
  // enqueue ends (Redis) blocks for idle_wait at once: that costs no latency,
  // and an idle worker makes one request per idle_wait instead of a burst of
  // polls every time the queues run dry.
  const bool blocks = env.backend.wakes_waiters();
  const Duration first_idle = blocks ? options.idle_wait : Duration(std::chrono::milliseconds(1));
  const Duration longest_idle = blocks ? options.idle_wait : options.poll_interval;
  Duration idle = first_idle;
  // What every fetch asks for, with a fresh owner per execution.
  const auto request = [&] {
    return FetchRequest{options.queues, new_run_id(), options.visibility_timeout,
                        env.options.lease_ttl, env.worker_id};
  };
  // The job fetched with the last commit of the previous run, if any.
  NextDelivery ahead;
  // Whether the last fetch found nothing due: the next one waits first.
  bool was_idle = false;
  while (!stop.stop_requested()) {
    std::optional<Delivery> d;
    FetchRequest f;
    Status s;
    TimePoint asked_at{};  // the run's lease is trusted from here for its ttl
    if (ahead.delivery) {
      f = std::move(ahead.request);
      d = std::move(ahead.delivery);
      asked_at = ahead.asked_at;
      ahead.delivery.reset();
    } else {
      f = request();
      asked_at = env.clock.now();
      // After an empty fetch: block until an enqueue wakes us or the next job
      // falls due (backends that can), else sleep; then fetch. At most `idle`
      // <= longest_idle either way, so stopping waits no longer than that.
      Result<std::optional<Delivery>> fetched =
          was_idle ? env.backend.wait_then_fetch(f, idle) : env.backend.fetch(f);
      s = fetched.status();
      if (fetched.ok()) d = std::move(fetched).value();
    }
    if (!s.ok()) {
      engine.logger().log(LogLevel::kError, "worker: fetch failed: " + s.to_string());
      std::this_thread::sleep_for(idle);
    }
    was_idle = s.ok() && !d;
    if (!s.ok() || !d) {
      idle = std::min<Duration>(idle * 2, longest_idle);
      continue;
    }
    idle = first_idle;
    ahead.request = request();
    was_idle = execute(env, *d, f.owner, asked_at, ahead, in_flight);
  }
  put_back_ahead(env, ahead);
}

// Executes delivery `d`, fetched for `owner`; the commit that ends its run may fetch the next
// into `ahead` (asking as ahead.request). True when that fetch found nothing due: fetching again
// at once would find nothing too, so the next try waits for an enqueue first.
bool Worker::Impl::execute(DurableEnv& env, const Delivery& d, const std::string& owner,
                           TimePoint asked_at, NextDelivery& ahead, InFlight& in_flight) {
  ahead.fetched = false;
  DeliveryOptions how;
  how.asked_at = asked_at;
  how.next = &ahead;
  how.release_requested = &releasing;
  how.in_flight = &in_flight;
  const DeliveryOutcome o = process_delivery(env, d, owner, how);
  if (o == DeliveryOutcome::kNotServed) {
    engine.logger().log(LogLevel::kWarning, "worker: job " + std::to_string(d.job.id) +
                                                " for reactor '" + d.job.spec.reactor +
                                                "' is not served here; handed back");
  }
  count(o);
  if (options.on_delivery) options.on_delivery(d.job, o);
  return ahead.fetched && !ahead.delivery;
}

// Stopping with a job fetched ahead: it goes back, due at once, for a worker that stays.
void Worker::Impl::put_back_ahead(DurableEnv& env, NextDelivery& ahead) {
  if (!ahead.delivery) return;
  Status s = put_back(env, *ahead.delivery, ahead.request.owner, Duration::zero());
  if (!s.ok()) {
    // Its job becomes visible again after the visibility timeout, its run's lease lapses.
    engine.logger().log(LogLevel::kWarning, "worker: could not hand back job " +
                                                std::to_string(ahead.delivery->job.id) + ": " +
                                                s.to_string());
  }
}

void Worker::Impl::sweep_loop(std::stop_token stop) {
  DurableEnv& env = *EngineAccess::durable_env(engine);
  // Named after this worker, as its other leases are: the dashboard shows who swept last.
  const std::string owner = env.worker_id + "/" + new_run_id();
  while (!stop.stop_requested()) {
    SweepReport r = sweeper->sweep_if_due(owner);
    if (!r.status.ok()) {
      engine.logger().log(LogLevel::kError, "worker: sweep failed: " + r.status.to_string());
    }
    if (r.swept) {
      std::lock_guard lock(mu);
      ++stats.sweeps;
      stats.requeued += r.requeued;
      stats.purged += r.purged;
      stats.last_sweep_ms = env.now_ms();
    }
    // Wake at the start of the next window (plus a little, so the clock has
    // surely moved into it).
    auto now = env.clock.now().time_since_epoch();
    auto next = (now / options.sweep_interval + 1) * options.sweep_interval;
    env.clock.wait_until(TimePoint(next) + std::chrono::milliseconds(5), stop);
  }
}

// Fires the due periods of the schedules this worker's queues serve, at every multiple of
// schedule_interval (durability/schedules.hpp). Other workers may fire the same period at once:
// its run's id makes the second start the first's run.
void Worker::Impl::schedule_loop(std::stop_token stop) {
  DurableEnv& env = *EngineAccess::durable_env(engine);
  const auto serves = [&](const std::string& reactor) {
    return engine.registry().find(reactor).has_value() &&
           std::find(options.queues.begin(), options.queues.end(), env.queue_for(reactor)) !=
               options.queues.end();
  };
  const auto start = [&](const std::string& reactor, Value inputs, const std::string& run_id) {
    return engine.run_in_background(reactor, std::move(inputs), {.run_id = run_id}).status();
  };
  while (!stop.stop_requested()) {
    ScheduleTick tick = fire_due_schedules(env.backend, env.clock.now(), serves, start);
    if (!tick.status.ok()) {
      engine.logger().log(LogLevel::kError, "worker: schedules: " + tick.status.to_string());
    }
    for (const std::string& e : tick.errors) {
      engine.logger().log(LogLevel::kError, "worker: schedules: " + e);
    }
    if (tick.fired > 0) {
      std::lock_guard lock(mu);
      stats.schedules_fired += tick.fired;
    }
    auto now = env.clock.now().time_since_epoch();
    auto next = (now / options.schedule_interval + 1) * options.schedule_interval;
    env.clock.wait_until(TimePoint(next) + std::chrono::milliseconds(5), stop);
  }
}

// Keeps the serving leases of the worker's queues while it runs (durability/presence.hpp), and
// lets them go when it stops, so that a caller sees at once that nobody serves them.
void Worker::Impl::presence_loop(std::stop_token stop) {
  DurableEnv& env = *EngineAccess::durable_env(engine);
  for (;;) {
    env.clock.wait_until(env.clock.now() + env.options.lease_ttl / 3, stop);
    if (stop.stop_requested()) break;
    presence->renew();
  }
  presence->release();
}

Worker::Worker(Engine& engine, WorkerOptions options)
    : impl_(std::make_unique<Impl>(engine, std::move(options))) {}

Worker::~Worker() {
  stop();
  wait();
  // A thread still in a step body after stop_now() is joined when the body returns.
  for (auto& t : impl_->threads) {
    if (t.joinable()) t.join();
  }
}

void Worker::start() {
  DurableEnv& env = *EngineAccess::durable_env(impl_->engine);
  if (impl_->options.metrics && !impl_->metrics) {
    impl_->metrics = std::make_unique<WorkerMetrics>(*impl_->options.metrics, *this, env.backend);
  }
  impl_->durable_steps_at_start = env.durable_steps.load(std::memory_order_relaxed);
  impl_->round_trips_at_start = env.backend.round_trips();
  for (int i = 0; i < impl_->options.threads; ++i) {
    impl_->in_flight.push_back(std::make_unique<InFlight>());
    InFlight& slot = *impl_->in_flight.back();
    impl_->threads.emplace_back([this, &slot](std::stop_token s) {
      impl_->fetch_loop(s, slot);
      impl_->thread_done();
    });
  }
  if (impl_->options.sweeper) {
    impl_->threads.emplace_back([this](std::stop_token s) {
      impl_->sweep_loop(s);
      impl_->thread_done();
    });
  }
  if (impl_->options.schedules && impl_->options.schedule_interval > Duration::zero()) {
    impl_->threads.emplace_back([this](std::stop_token s) {
      impl_->schedule_loop(s);
      impl_->thread_done();
    });
  }
  // Seen serving its queues as soon as start() returns: a caller asking right after finds it.
  impl_->presence->renew();
  impl_->threads.emplace_back([this](std::stop_token s) {
    impl_->presence_loop(s);
    impl_->thread_done();
  });
}

void Worker::stop() {
  {
    std::lock_guard lock(impl_->done_mu);
    if (impl_->stop_deadline) return;
    impl_->stop_deadline = std::chrono::steady_clock::now() + impl_->options.shutdown_timeout;
  }
  impl_->releasing = true;
  for (auto& t : impl_->threads) t.request_stop();
  // Idle threads blocked on the store return now rather than at the end of their idle_wait.
  if (DurableEnv* env = EngineAccess::durable_env(impl_->engine)) env->backend.interrupt_waits();
}

void Worker::stop_now() {
  stop();
  impl_->abandon_in_flight();
}

void Worker::wait() {
  std::unique_lock lock(impl_->done_mu);
  const auto all_done = [&] { return impl_->threads_done == impl_->threads.size(); };
  if (!impl_->stop_deadline) {
    impl_->done_cv.wait(lock, all_done);  // stopped by nobody yet: until they end
  } else if (!impl_->done_cv.wait_until(lock, *impl_->stop_deadline, all_done)) {
    // The shutdown took too long: what is still in flight is handed back without waiting.
    lock.unlock();
    impl_->abandon_in_flight();
    return;
  }
  lock.unlock();
  for (auto& t : impl_->threads) {
    if (t.joinable()) t.join();
  }
}

const std::vector<std::string>& Worker::queues() const { return impl_->options.queues; }

WorkerStats Worker::stats() const {
  DurableEnv& env = *EngineAccess::durable_env(impl_->engine);
  std::lock_guard lock(impl_->mu);
  WorkerStats out = impl_->stats;
  out.durable_steps =
      env.durable_steps.load(std::memory_order_relaxed) - impl_->durable_steps_at_start;
  out.round_trips = env.backend.round_trips() - impl_->round_trips_at_start;
  return out;
}

namespace {
std::atomic<int> g_stop_signals{0};
extern "C" void on_stop_signal(int) { g_stop_signals.fetch_add(1); }
}  // namespace

int run_worker(Engine& engine, WorkerOptions options) {
  std::unique_ptr<MetricsServer> metrics_server;
  if (!options.metrics_listen.empty()) {
    auto served = serve_metrics(engine, options);
    if (!served.ok()) return 2;  // told to the engine's Logger
    metrics_server = std::move(served).value();
  }
  std::signal(SIGTERM, on_stop_signal);
  std::signal(SIGINT, on_stop_signal);
  Worker worker(engine, std::move(options));
  worker.start();
  while (g_stop_signals.load() == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  // The first signal: runs in flight finish their step and are handed back. A second: at once.
  worker.stop();
  std::jthread second([&worker](std::stop_token stop) {
    while (!stop.stop_requested()) {
      if (g_stop_signals.load() > 1) {
        worker.stop_now();
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  });
  worker.wait();
  return 0;
}

}  // namespace reactor
