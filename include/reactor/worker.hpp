// Worker: executes background runs. N threads in one process fetch jobs from
// the queues of the reactors registered with the engine, each taking the
// run's lease, loading it by id, resuming it and committing every step.
// Each worker process also runs the recovery sweeper by itself, and fires the
// schedules of the reactors it serves (reactor/schedule.hpp).
//
// The main of a user's worker binary:
//
//   int main() {
//     auto store = reactor::open_backend("sqlite:///var/lib/app/reactor.db", nullptr);
//     if (!store.ok()) return 2;
//     reactor::Engine engine({.backend = std::move(store).value()});
//     register_my_reactors(engine.registry());
//     return reactor::run_worker(engine, {.threads = 4});
//   }
//
// Thread safety: start(), stop() and wait() are called by the worker's owner,
// from one thread (stop() may also come from a signal-handling thread);
// stats() may be called from any thread at any time. on_delivery runs on the
// worker's own threads, several at once when threads > 1.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "reactor/engine.hpp"
#include "reactor/metrics.hpp"

namespace reactor {

struct WorkerOptions {
  int threads = 1;
  // How long a fetched job stays invisible to other workers; a job whose
  // worker died is delivered again after this. A run whose worker died is
  // recovered sooner, by the sweeper, once its lease lapses — so this is a
  // backstop, and the default (5 × the lease ttl: 50 s) keeps a run that executes
  // longer than its lease ttl (its lease extended by the heartbeat) from
  // being delivered again while it runs.
  Duration visibility_timeout{0};
  // Idle back-off ceiling on a backend that cannot block (memory, SQLite on an injected clock):
  // the longest a thread waits before fetching again while its queues are
  // empty. It also bounds how long stop() waits for an idle thread.
  Duration poll_interval = std::chrono::milliseconds(50);
  // How long an idle thread blocks in one wait on a backend that an enqueue
  // wakes (Redis; SQLite on the system clock, through its wake file;
  // Backend::wakes_waiters): an enqueue, or a job falling due, ends the wait
  // at once, so a longer wait costs no latency; each wait is one request to
  // the store (on SQLite, one more read per commit that wakes it). stop() ends
  // the waits it can (JobQueue::interrupt_waits: SQLite's); on Redis it waits
  // up to this long for an idle thread.
  Duration idle_wait = std::chrono::seconds(1);
  // The longest a graceful stop() may take, start to end (see stop()).
  Duration shutdown_timeout = std::chrono::seconds(25);
  bool sweeper = true;
  // With DurabilityOptions::lease_ttl (10 s), a dead worker's runs are
  // recovered within lease ttl + sweep_interval (14 s), and its step in
  // flight runs again then.
  Duration sweep_interval = std::chrono::seconds(4);
  std::size_t sweep_limit = 1000;
  // Periodic starts (reactor/schedule.hpp): at every multiple of schedule_interval the worker
  // starts the run of each due period of the schedules whose reactor it serves (one run per
  // period, whichever workers look). A period starts up to an interval late. false: none.
  bool schedules = true;
  Duration schedule_interval = std::chrono::seconds(1);
  // Reactors whose runs to serve, by name: their queues, as the engine's
  // DurabilityOptions::queue_for names them. Default: every registered
  // reactor. A name the engine does not know makes the Worker constructor
  // throw std::invalid_argument, naming it.
  std::vector<std::string> reactors;
  // Queues to serve, when set: they replace the reactors' queues.
  std::vector<std::string> queues;
  // Called after every delivery, on the thread that handled it (so from
  // several threads at once when threads > 1), with what became of it
  // (to_string(outcome) names it for logs). Must not throw.
  std::function<void(const Job& job, DeliveryOutcome outcome)> on_delivery;
  // Metrics (docs/observability.md, "Metrics"): the registry the worker reports its sweeper passes
  // and its queues' depths to, collected on every scrape; null: none. Runs and steps are counted by
  // the engine's MetricsObserver (add_metrics).
  std::shared_ptr<MetricsRegistry> metrics;
  // "HOST:PORT": run_worker serves `metrics` (made when null) on http://HOST:PORT/metrics, and
  // returns 2 without serving runs when it cannot listen there. Empty: no server.
  std::string metrics_listen;
};

struct WorkerStats {
  std::uint64_t jobs = 0;           // deliveries handled
  std::uint64_t runs_finished = 0;  // runs this worker took to a terminal status
  std::uint64_t snoozed = 0;        // deliveries put off by lease contention
  std::uint64_t not_served = 0;     // jobs for reactors this worker does not serve, put back
  std::uint64_t released = 0;       // runs released unfinished as it stopped (DeliveryOutcome)
  std::uint64_t lease_lost = 0;     // executions stopped by a newer writer
  std::uint64_t sweeps = 0;
  std::uint64_t requeued = 0;         // runs the sweeper put back in the queue
  std::uint64_t purged = 0;           // expired runs the sweeper purged
  std::int64_t last_sweep_ms = 0;     // when this worker's last sweep pass ended (unix ms); 0: none
  std::uint64_t schedules_fired = 0;  // periods whose run this worker's ticker started
  // Since start(), for the whole engine this worker serves (so for the
  // process, when the worker is its only user of the engine):
  // commits that recorded step progress (a step's result, failure, retry or
  // compensation) ...
  std::uint64_t durable_steps = 0;
  // ... and requests to the store (Backend::round_trips(): fetches, commits,
  // heartbeats, waits, sweeps and retries; 0 for a store inside the process).
  std::uint64_t round_trips = 0;
};

class Worker {
 public:
  // `engine` must have a backend and outlive the worker.
  Worker(Engine& engine, WorkerOptions options);
  ~Worker();  // stop() and wait()
  Worker(const Worker&) = delete;
  Worker& operator=(const Worker&) = delete;

  void start();
  // A graceful stop: no more fetching; each run in flight finishes the step
  // it is in, commits it and is handed back (its lease released, its job due
  // at once) for another worker to carry on, instead of being finished here.
  // A claim of a fan-out map (docs/maps.md) runs its elements to the end and
  // is filed: it is their unit of commit, as a step is a run's.
  // wait() returns once that is done, or once shutdown_timeout has passed:
  // runs still in flight then are handed back without waiting for their step.
  void stop();
  // Hands every run in flight back at once, without waiting for its step (a
  // second SIGTERM): the step runs again elsewhere.
  void stop_now();
  // Returns once every thread has ended (after stop() or stop_now()), at most
  // shutdown_timeout after stop().
  void wait();

  WorkerStats stats() const;
  // The queues it fetches from (WorkerOptions::queues, or its reactors').
  const std::vector<std::string>& queues() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// Counts `engine_options`' runs in `metrics`: a MetricsObserver first among its observers, and
// its backend (when set) wrapped in a MeteredBackend. Call before the Engine is made.
void add_metrics(EngineOptions& engine_options, std::shared_ptr<MetricsRegistry> metrics);

// Runs a worker until SIGTERM or SIGINT, then shuts down gracefully.
// Returns the process exit code.
int run_worker(Engine& engine, WorkerOptions options);

}  // namespace reactor
