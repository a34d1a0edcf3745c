#include "worker_loop.hpp"

#include <pthread.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdio>
#include <stdexcept>

#include "reactor/worker.hpp"

namespace reactor_cli {

using namespace reactor;

namespace {

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// One stderr line for each delivery that did not simply run its run: an
// operator reading the log sees duplicates, bad records and takeovers.
void log_delivery(const std::string& name, const Job& job, DeliveryOutcome outcome) {
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
  std::fprintf(stderr, "%s: job %lld of run %s %s: %s\n", name.c_str(),
               static_cast<long long>(job.id), job.spec.run_id.c_str(), to_string(outcome), why);
}

// What a worker did, on its way out: the store requests it made per durable
// step are the figure to watch on a networked store (docs/redis.md, "Round trips").
void report(const std::string& name, const WorkerStats& st) {
  std::fprintf(stderr,
               "%s: stopped after %llu deliveries (%llu runs finished) and %llu "
               "durable steps",
               name.c_str(), static_cast<unsigned long long>(st.jobs),
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

}  // namespace

void add_worker_options(CLI::App& cmd, WorkerLoopOptions& o) {
  cmd.add_option("--threads", o.threads, "Worker threads")->check(CLI::Range(1, 256));
  cmd.add_option("--lease-ttl", o.lease_ttl_s, "Run lease TTL in seconds")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--sweep-interval", o.sweep_interval_s, "Recovery sweep interval in seconds")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--snooze-delay", o.snooze_delay_s,
                 "Seconds (plus up to as much jitter) before a job whose run is held by "
                 "another execution, or that this worker cannot serve, is tried again")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--snooze-max-attempts", o.snooze_max_attempts,
                 "Snoozes allowed for contention other than a live duplicate")
      ->check(CLI::Range(1, 1000000));
  cmd.add_option("--reactors", o.reactors,
                 "Serve only these reactors' runs (comma-separated names; default: all)")
      ->delimiter(',');
}

DurabilityOptions durability_options(const WorkerLoopOptions& o) {
  DurabilityOptions durability;
  durability.lease_ttl = seconds(o.lease_ttl_s);
  if (o.snooze_delay_s) {
    durability.lock_snooze_base_delay = seconds(*o.snooze_delay_s);
    durability.lock_snooze_jitter = seconds(*o.snooze_delay_s);
  }
  if (o.snooze_max_attempts) durability.lock_snooze_max_attempts = *o.snooze_max_attempts;
  return durability;
}

sigset_t block_stop_signals() {
  sigset_t stop_signals;
  sigemptyset(&stop_signals);
  sigaddset(&stop_signals, SIGTERM);
  sigaddset(&stop_signals, SIGINT);
  pthread_sigmask(SIG_BLOCK, &stop_signals, nullptr);
  return stop_signals;
}

int serve(Engine& engine, const WorkerLoopOptions& o, const sigset_t& stop_signals,
          const std::string& name, const std::function<std::string()>& on_started) {
  WorkerOptions options;
  options.threads = o.threads;
  options.reactors = o.reactors;
  options.sweep_interval = seconds(o.sweep_interval_s);
  options.on_delivery = [name](const Job& job, DeliveryOutcome outcome) {
    log_delivery(name, job, outcome);
  };
  // describe(): the URL with any password masked.
  std::fprintf(stderr, "%s: serving %s with %d thread(s) (pid %d)\n", name.c_str(),
               engine.backend()->describe().c_str(), o.threads, static_cast<int>(getpid()));
  std::optional<Worker> built;
  try {
    built.emplace(engine, std::move(options));
  } catch (const std::invalid_argument& e) {  // an unknown reactor
    std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
    return 2;
  }
  Worker& worker = *built;
  worker.start();
  if (on_started) {
    if (auto why = on_started(); !why.empty()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), why.c_str());
      worker.stop();
      return 1;
    }
  }
  int signal = 0;
  sigwait(&stop_signals, &signal);
  worker.stop();
  worker.wait();
  report(name, worker.stats());
  return 0;
}

}  // namespace reactor_cli
