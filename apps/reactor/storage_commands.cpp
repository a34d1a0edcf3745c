// The commands that work on stored runs: worker, runs, show, sweep, enqueue.
#include <pthread.h>
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <iostream>
#include <optional>

#include "bench_saga/bench_record.hpp"
#include "cli_engine.hpp"
#include "commands.hpp"
#include "reactor/worker.hpp"

namespace reactor_cli {

using namespace reactor;

namespace {

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// One stderr line for each delivery that did not simply run its run: an
// operator reading the log sees duplicates, bad records and takeovers.
void log_delivery(const Job& job, DeliveryOutcome outcome) {
  const char* why = nullptr;
  switch (outcome) {
    case DeliveryOutcome::kSnoozed:
      why = "the run is held by another execution";
      break;
    case DeliveryOutcome::kAcknowledged:
      why = "nothing to do (the run ended or is gone)";
      break;
    case DeliveryOutcome::kFailedRun:
      why = "the run cannot be resumed; marked failed";
      break;
    case DeliveryOutcome::kLeaseLost:
      why = "a newer execution took the run over";
      break;
    case DeliveryOutcome::kBackendError:
      why = "the store failed; the job will be redelivered";
      break;
    default:  // finished, suspended; handed_back is reported by the worker
      return;
  }
  std::fprintf(stderr, "reactor worker: job %lld of run %s %s: %s\n",
               static_cast<long long>(job.id), job.spec.run_id.c_str(), to_string(outcome), why);
}

// What a worker did, on its way out: the store requests it made per durable
// step are the figure to watch on a networked store (docs/redis.md, "Round trips").
void report(const WorkerStats& st) {
  std::fprintf(stderr,
               "reactor worker: stopped after %llu deliveries (%llu runs finished) and %llu "
               "durable steps",
               static_cast<unsigned long long>(st.jobs),
               static_cast<unsigned long long>(st.runs_finished),
               static_cast<unsigned long long>(st.durable_steps));
  if (st.round_trips == 0) {
    std::fprintf(stderr, "\n");
    return;
  }
  std::fprintf(stderr, "; %llu requests to the store",
               static_cast<unsigned long long>(st.round_trips));
  if (st.durable_steps > 0) {
    std::fprintf(stderr, ", %.2f per durable step",
                 static_cast<double>(st.round_trips) / static_cast<double>(st.durable_steps));
  }
  std::fprintf(stderr, " (fetches, waits, heartbeats and sweeps included)\n");
}

// SIGTERM and SIGINT, blocked in the calling thread. Called before any other
// thread starts (the engine's heartbeat thread included: every thread
// inherits the mask), so the thread that calls serve() alone receives them.
sigset_t block_stop_signals() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  return stop_signals;
}

// Serves until one of `stop_signals` arrives, then stops gracefully (a run in
// flight finishes its delivery) and reports. With `ready`, tells the peer
// benchmark's harness (SADD bench:ready <pid>) once its threads are fetching.
int serve(Engine& engine, WorkerOptions options, const sigset_t& stop_signals,
          examples::BenchRecord* ready) {
  std::optional<Worker> built;
  try {
    built.emplace(engine, std::move(options));
  } catch (const std::invalid_argument& e) {  // an unknown reactor
    std::fprintf(stderr, "reactor worker: %s\n", e.what());
    return 2;
  }
  Worker& worker = *built;
  worker.start();
  if (ready != nullptr) {
    if (auto why = ready->announce_ready(); !why.empty()) {
      std::fprintf(stderr, "reactor worker: %s\n", why.c_str());
      worker.stop();
      return 1;
    }
  }
  int signal = 0;
  sigwait(&stop_signals, &signal);
  worker.stop();
  worker.wait();
  report(worker.stats());
  return 0;
}

}  // namespace

int run_worker_command(const WorkerCliOptions& o) {
  const sigset_t stop_signals = block_stop_signals();
  DurabilityOptions durability;
  durability.lease_ttl = seconds(o.lease_ttl_s);
  if (o.snooze_delay_s) {
    durability.lock_snooze_base_delay = seconds(*o.snooze_delay_s);
    durability.lock_snooze_jitter = seconds(*o.snooze_delay_s);
  }
  if (o.snooze_max_attempts) durability.lock_snooze_max_attempts = *o.snooze_max_attempts;
  CliEngine cli;
  if (!cli.open(o.storage, durability)) return 2;
  WorkerOptions w;
  w.threads = o.threads;
  w.reactors = o.reactors;
  w.sweep_interval = seconds(o.sweep_interval_s);
  w.on_delivery = log_delivery;
  // describe(): the URL with any password masked.
  std::fprintf(stderr, "reactor worker: serving %s with %d thread(s) (pid %d)\n",
               cli.engine().backend()->describe().c_str(), o.threads, static_cast<int>(getpid()));
  if (!o.bench_ready) return serve(cli.engine(), std::move(w), stop_signals, nullptr);
  auto record = examples::BenchRecord::from_env();
  if (record == nullptr) {
    std::fprintf(stderr, "reactor worker: --bench-ready needs BENCH_REDIS_PORT\n");
    return 2;
  }
  return serve(cli.engine(), std::move(w), stop_signals, record.get());
}

int run_runs(const RunsOptions& o) {
  CliEngine cli;
  if (!cli.open(o.storage, {})) return 2;
  RunFilter filter;
  filter.limit = o.limit;
  if (o.status) {
    try {
      filter.status = run_status_from_string(*o.status);
    } catch (const std::exception&) {
      std::cerr << "reactor runs: unknown status '" << *o.status << "'\n";
      return 2;
    }
  }
  std::vector<RunHeaderRow> rows;
  Status s = cli.engine().backend()->list_runs(filter, rows);
  if (!s.ok()) {
    std::cerr << "reactor runs: " << s.to_string() << "\n";
    return 1;
  }
  for (const auto& r : rows) {
    if (o.json) {
      std::cout << Value{{"id", r.id},
                         {"reactor", r.reactor},
                         {"status", to_string(r.status)},
                         {"updated_at_ms", r.updated_at_ms}}
                       .dump()
                << "\n";
    } else {
      std::printf("%-36s  %-16s  %s\n", r.id.c_str(), r.reactor.c_str(), to_string(r.status));
    }
  }
  return 0;
}

int run_show(const ShowOptions& o) {
  CliEngine cli;
  if (!cli.open(o.storage, {})) return 2;
  RunResult r;
  Status s = cli.engine().find(o.run_id, r);
  if (!s.ok()) {
    std::cerr << "reactor show: " << s.to_string() << "\n";
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  if (o.json) {
    std::cout << to_json(r).dump(2) << "\n";
    return 0;
  }
  std::printf("run      %s\nreactor  %s\nstatus   %s\n", r.run_id.c_str(), r.reactor.c_str(),
              to_string(r.status));
  if (r.ok()) std::printf("value    %s\n", r.value.dump().c_str());
  if (r.error) {
    std::printf("error    %s at '%s': %s\n", to_string(r.error->kind), r.error->step.c_str(),
                r.error->message.c_str());
  }
  std::printf("steps\n");
  for (const auto& step : r.steps) {
    std::printf("  %-28s %-16s attempts=%d\n", step.step.c_str(), to_string(step.status),
                step.attempts);
  }
  std::printf("trace    %s\n", r.trace_summary().c_str());
  return 0;
}

int run_sweep(const std::string& storage) {
  CliEngine cli;
  if (!cli.open(storage, {})) return 2;
  std::size_t requeued = 0, purged = 0;
  Status s = cli.sweep_once(requeued, purged);
  if (!s.ok()) {
    std::cerr << "reactor sweep: " << s.to_string() << "\n";
    return 1;
  }
  std::printf("requeued %zu run(s), purged %zu expired run(s)\n", requeued, purged);
  return 0;
}

int run_enqueue(const std::string& storage, const std::string& run_id) {
  CliEngine cli;
  if (!cli.open(storage, {})) return 2;
  Backend& backend = *cli.engine().backend();
  RunHeaderRow run;
  Status s = backend.load_header(run_id, run);
  if (!s.ok()) {
    std::cerr << "reactor enqueue: " << s.to_string() << "\n";
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  if (!run.parent_id.empty()) {
    std::cerr << "reactor enqueue: run " << run_id << " is a child of run " << run.root_id
              << "; enqueue the root\n";
    return 2;
  }
  // The queue is the reactor's name: the CLI's engine routes every reactor so.
  CommitRequest c;
  c.enqueue.push_back(JobSpec{run.reactor, JobKind::kResume, run.id, run.reactor,
                              to_unix_ms(cli.engine().clock().now()), 0});
  s = backend.commit(c);
  if (!s.ok()) {
    std::cerr << "reactor enqueue: " << s.to_string() << "\n";
    return 1;
  }
  std::printf("enqueued a resume job for run %s (%s, %s)\n", run.id.c_str(), run.reactor.c_str(),
              to_string(run.status));
  return 0;
}

}  // namespace reactor_cli
