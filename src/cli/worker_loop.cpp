#include "cli/worker_loop.hpp"

#include <pthread.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <atomic>
#include <chrono>
#include <cstdio>
#include <mutex>
#include <stdexcept>
#include <thread>

#include "base/suggest.hpp"
#include "reactor/worker.hpp"

namespace reactor::cli {

namespace {

Duration seconds(double s) {
  return std::chrono::duration_cast<Duration>(std::chrono::duration<double>(s));
}

// One stderr line for each delivery that did not simply run its run: an operator reading the
// log sees duplicates, bad records and takeovers. Two kinds are told more quietly:
//   - stale jobs, acknowledged because their run had ended or was gone (duplicates, and a worker
//     started after a crash meets one for each run the dead worker held): the first of a burst
//     is told at once, the rest in one line, "acknowledged N stale jobs", once a second has
//     passed without another, or when the worker stops;
//   - a snooze on a run that this process executes itself (a duplicate that another thread of
//     this worker fetched) is not told: the run is not "held by another execution", and the
//     duplicate is acknowledged once the run ends.
class DeliveryLog {
 public:
  DeliveryLog(Engine& engine, std::string name) : engine_(engine), name_(std::move(name)) {}

  // On the worker's threads.
  void on_delivery(const Job& job, DeliveryOutcome outcome) {
    const char* why = nullptr;
    switch (outcome) {
      case DeliveryOutcome::kSnoozed:
        if (executed_here(job.spec.run_id)) return;
        why = "the run is held by another execution";
        break;
      case DeliveryOutcome::kAcknowledged: {
        std::lock_guard lock(mu_);
        last_stale_ = std::chrono::steady_clock::now();
        if (stale_++ > 0) return;
        why = "nothing to do (the run ended or is gone)";
        break;
      }
      case DeliveryOutcome::kFailedRun:
        why = "the run cannot be resumed; marked failed";
        break;
      case DeliveryOutcome::kLeaseLost:
        why = "a newer execution took the run over";
        break;
      case DeliveryOutcome::kBackendError:
        why = "the store failed; the job will be redelivered";
        break;
      default:  // finished, suspended, released; not_served is reported by the worker
        return;
    }
    std::fprintf(stderr, "%s: job %lld of run %s %s: %s\n", name_.c_str(),
                 static_cast<long long>(job.id), job.spec.run_id.c_str(), to_string(outcome), why);
  }

  // Tells the burst of stale jobs, if any, once it has gone quiet (`quiet`), or at once.
  void tell_stale(std::chrono::steady_clock::duration quiet = {}) {
    std::lock_guard lock(mu_);
    if (stale_ == 0 || std::chrono::steady_clock::now() - last_stale_ < quiet) return;
    if (stale_ > 1) {
      std::fprintf(stderr, "%s: acknowledged %zu stale jobs (their runs had ended or were gone)\n",
                   name_.c_str(), stale_);
    }
    stale_ = 0;
  }

 private:
  // Whether the run's header names this process as the one executing it (its lease's holder
  // wrote it when its fetch took the lease).
  bool executed_here(const std::string& run_id) const {
    Result<RunHeaderRow> header = engine_.backend()->load_header(run_id);
    return header.ok() && header->exec_worker == engine_.worker_id() &&
           !is_terminal(header->status);
  }

  Engine& engine_;
  const std::string name_;
  std::mutex mu_;
  std::size_t stale_ = 0;  // acknowledged in this burst
  std::chrono::steady_clock::time_point last_stale_;
};

// "SIGTERM", "SIGINT".
std::string signal_name(int signal) {
  const char* abbrev = sigabbrev_np(signal);
  return abbrev ? std::string("SIG") + abbrev : "signal " + std::to_string(signal);
}

// The queues a worker serving `reactors` (empty: every registered one) fetches from.
std::string queues_of(Engine& engine, const std::vector<std::string>& reactors) {
  std::string out;
  for (const auto& name : reactors.empty() ? engine.registry().names() : reactors) {
    out += (out.empty() ? "" : ", ") + engine.queue_for(name);
  }
  return out.empty() ? "none" : out;
}

// What a worker did, on its way out, in one line: the store requests it made per durable step
// are the figure to watch on a networked store (docs/redis.md, "Round trips").
void report(const std::string& name, const std::string& how, const WorkerStats& st) {
  std::string line = name + ": stopped (" + how + ") after " + std::to_string(st.jobs) +
                     " deliveries (" + std::to_string(st.runs_finished) + " runs finished) and " +
                     std::to_string(st.durable_steps) + " durable steps";
  if (st.round_trips > 0) {
    line += "; " + std::to_string(st.round_trips) + " requests to the store";
    if (st.durable_steps > 0) {
      char per_step[32];
      std::snprintf(per_step, sizeof per_step, "%.2f",
                    static_cast<double>(st.round_trips) / static_cast<double>(st.durable_steps));
      line += std::string(", ") + per_step + " per durable step";
    }
    line += " (fetches, waits, heartbeats and sweeps included)";
  }
  std::fprintf(stderr, "%s\n", line.c_str());
}

// Waits for the stop signals that arrive while the worker shuts down: the first calls
// stop_now(). Ends once told to, after the worker's threads have ended.
class SecondSignal {
 public:
  SecondSignal(Worker& worker, const sigset_t& signals, const std::string& name)
      : thread_([this, &worker, signals, name] {
          int signal = 0;
          while (sigwait(&signals, &signal) == 0 && !done_.load()) {
            if (stopped_now_.exchange(true)) continue;
            std::fprintf(stderr, "%s: %s again: handing the runs in flight back now\n",
                         name.c_str(), signal_name(signal).c_str());
            worker.stop_now();
          }
        }) {}
  // The worker's threads have ended: wakes the thread from its sigwait and joins it.
  void finish() {
    done_.store(true);
    pthread_kill(thread_.native_handle(), SIGTERM);  // blocked there: it only ends the sigwait
    thread_.join();
  }
  bool stopped_now() const { return stopped_now_.load(); }

 private:
  std::atomic<bool> done_{false};
  std::atomic<bool> stopped_now_{false};
  std::thread thread_;
};

std::string seconds_text(Duration d) {
  char text[32];
  std::snprintf(text, sizeof text, "%g", seconds_of(d));
  return std::string(text);
}

// How long a worker waits and how often it lets a run fail: snoozes, lost executions, crash
// loops, parked readers.
void add_limit_options(CLI::App& cmd, WorkerLoopOptions& o) {
  const DurabilityOptions durability;
  cmd.add_option("--snooze-delay", o.snooze_delay_s,
                 "Seconds (plus up to as much jitter) before a job whose run is held by "
                 "another execution, or that this worker cannot serve, is tried again "
                 "(default " +
                     seconds_text(durability.lock_snooze_base_delay) + ")")
      ->check(CLI::PositiveNumber);
  cmd.add_option("--snooze-max-attempts", o.snooze_max_attempts,
                 "Snoozes allowed for contention other than a live duplicate (default " +
                     std::to_string(durability.lock_snooze_max_attempts) + ")")
      ->check(CLI::Range(1, 1000000));
  cmd.add_option("--max-interrupted-executions", o.max_interrupted_executions,
                 "Executions of one step that may be lost with their worker before the run fails "
                 "(a poison pill; default " +
                     std::to_string(durability.max_interrupted_executions) + ")")
      ->check(CLI::Range(1, 1000000));
  cmd.add_option("--max-deliveries-without-progress", o.max_deliveries_without_progress,
                 "Deliveries of one run that may end without progress (their worker died or froze "
                 "anywhere in them: a crash loop) before the next fails it; 0: no limit "
                 "(default " +
                     std::to_string(durability.max_deliveries_without_progress) + ")")
      ->check(CLI::Range(0, 1000000));
  cmd.add_option("--async-park-timeout", o.async_park_timeout_s,
                 "Seconds after an async unit's dispatch that a parked step reading it gives up "
                 "(async_park_timeout; default " +
                     seconds_text(durability.async_park_timeout) + ")")
      ->check(CLI::Range(0.001, 31536000.0));  // up to a year: a Duration holds it
}

// Each reactor of --reactors is registered; else says which are, closest first.
bool reactors_known(Engine& engine, const WorkerLoopOptions& o, const std::string& name) {
  for (const std::string& reactor : o.reactors) {
    if (engine.registry().find(reactor)) continue;
    std::string known;
    for (const auto& n : closest_first(reactor, engine.registry().names())) {
      known += (known.empty() ? "" : ", ") + n;
    }
    std::fprintf(stderr, "%s: unknown reactor '%s' (registered: %s)\n", name.c_str(),
                 reactor.c_str(), known.empty() ? "none" : known.c_str());
    return false;
  }
  return true;
}

}  // namespace

void add_worker_options(CLI::App& cmd, WorkerLoopOptions& o) {
  cmd.add_option("--threads", o.threads, "Worker threads")
      ->check(CLI::Range(1, 256))
      ->capture_default_str();
  cmd.add_option("--lease-ttl", o.lease_ttl_s,
                 "Run lease TTL in seconds: a dead worker's runs are taken over once their "
                 "leases lapse (and a sweep finds them). Shorter: faster recovery, more "
                 "heartbeats (each run in flight extends its lease every ttl/3)")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--sweep-interval", o.sweep_interval_s,
                 "Recovery sweep interval in seconds: how long a run whose lease lapsed may wait "
                 "for a sweep to hand it back")
      ->check(CLI::PositiveNumber)
      ->capture_default_str();
  cmd.add_option("--shutdown-timeout", o.shutdown_timeout_s,
                 "Seconds the graceful stop on SIGTERM/SIGINT may take: runs in flight finish "
                 "their step and are handed back (a second signal hands them back at once)")
      ->check(CLI::NonNegativeNumber)
      ->capture_default_str();
  cmd.add_option("--visibility-timeout", o.visibility_timeout_s,
                 "Seconds a fetched job stays invisible to other workers; a dead worker's job "
                 "is delivered again sooner, once the sweeper finds its run's lease lapsed "
                 "(default: 5 x --lease-ttl)")
      ->check(CLI::PositiveNumber);
  add_limit_options(cmd, o);
  cmd.add_option("--reactors", o.reactors,
                 "Serve only these reactors' runs (comma-separated names; default: all)")
      ->delimiter(',');
  cmd.add_option("--metrics", o.metrics_listen,
                 "Serve Prometheus metrics on http://HOST:PORT/metrics (e.g. 127.0.0.1:9464; "
                 "docs/observability.md)");
}

DurabilityOptions durability_options(const WorkerLoopOptions& o, DurabilityOptions base) {
  DurabilityOptions durability = std::move(base);
  durability.lease_ttl = seconds(o.lease_ttl_s);
  if (o.snooze_delay_s) {
    durability.lock_snooze_base_delay = seconds(*o.snooze_delay_s);
    durability.lock_snooze_jitter = seconds(*o.snooze_delay_s);
  }
  if (o.snooze_max_attempts) durability.lock_snooze_max_attempts = *o.snooze_max_attempts;
  if (o.max_interrupted_executions) {
    durability.max_interrupted_executions = *o.max_interrupted_executions;
  }
  if (o.max_deliveries_without_progress) {
    durability.max_deliveries_without_progress = *o.max_deliveries_without_progress;
  }
  if (o.async_park_timeout_s) durability.async_park_timeout = seconds(*o.async_park_timeout_s);
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
  if (!reactors_known(engine, o, name)) return 2;
  WorkerOptions options;
  options.threads = o.threads;
  options.reactors = o.reactors;
  options.sweep_interval = seconds(o.sweep_interval_s);
  options.shutdown_timeout = seconds(o.shutdown_timeout_s);
  if (o.visibility_timeout_s) options.visibility_timeout = seconds(*o.visibility_timeout_s);
  options.metrics = o.metrics;
  DeliveryLog log(engine, name);
  options.on_delivery = [&log](const Job& job, DeliveryOutcome outcome) {
    log.on_delivery(job, outcome);
  };
  std::optional<Worker> built;
  try {
    built.emplace(engine, std::move(options));
  } catch (const std::invalid_argument& e) {  // an unknown reactor
    std::fprintf(stderr, "%s: %s\n", name.c_str(), e.what());
    return 2;
  }
  Worker& worker = *built;
  // describe(): the URL with any password masked.
  std::fprintf(stderr, "%s: serving %s, queues %s, %d thread(s), pid %d\n", name.c_str(),
               engine.backend()->describe().c_str(), queues_of(engine, o.reactors).c_str(),
               o.threads, static_cast<int>(getpid()));
  worker.start();
  if (on_started) {
    if (auto why = on_started(); !why.empty()) {
      std::fprintf(stderr, "%s: %s\n", name.c_str(), why.c_str());
      worker.stop();
      return 1;
    }
  }
  int signal = 0;
  const timespec tick{0, 250'000'000};
  while ((signal = sigtimedwait(&stop_signals, nullptr, &tick)) < 0) {
    log.tell_stale(std::chrono::seconds(1));  // a burst of stale jobs that has gone quiet
  }
  std::fprintf(stderr,
               "%s: %s: stopping; runs in flight finish their step and are handed back "
               "(at most %g s; a second signal hands them back now)\n",
               name.c_str(), signal_name(signal).c_str(), o.shutdown_timeout_s);
  worker.stop();
  SecondSignal second(worker, stop_signals, name);
  worker.wait();
  second.finish();
  log.tell_stale();
  report(name,
         signal_name(signal) + (second.stopped_now() ? ", then at once on a second signal" : ""),
         worker.stats());
  return 0;
}

}  // namespace reactor::cli
