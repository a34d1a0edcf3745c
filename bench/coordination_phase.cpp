// One phase of `reactor-bench coordination` (coordination_phase.hpp).
#include "coordination_phase.hpp"

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <random>

#include "saga/bench_coordination.hpp"

namespace reactor_bench {

using namespace reactor;
using SteadyClock = std::chrono::steady_clock;

namespace coordination_bench {

// What the worker's deliveries came to, and the store's count when the last run ended.
struct Tally {
  std::mutex mu;
  std::condition_variable cv;
  std::uint64_t finished = 0, snoozed = 0, other = 0;
  std::uint64_t wanted = 0;
  SteadyClock::time_point ended;
  CallCounts calls_at_end;
  std::uint64_t round_trips_at_end = 0;
};

std::string fresh_nonce() {
  std::random_device rd;
  char out[17];
  std::snprintf(out, sizeof out, "%08x%08x", rd(), rd());
  return out;
}

EngineOptions engine_options(const CoordPhaseSpec& spec, std::shared_ptr<Backend> backend,
                             const std::string& nonce) {
  EngineOptions options;
  options.backend = std::move(backend);
  DurabilityOptions& d = options.durability;
  if (spec.snooze_base) d.lock_snooze_base_delay = *spec.snooze_base;
  if (spec.snooze_jitter) d.lock_snooze_jitter = *spec.snooze_jitter;
  if (spec.snooze_cap) d.lock_snooze_max_attempts = *spec.snooze_cap;
  d.queue_for = [nonce](const std::string& reactor) { return reactor + "-" + nonce; };
  return options;
}

std::vector<Value> inputs_of(const CoordPhaseSpec& spec, const std::string& nonce) {
  std::vector<Value> inputs;
  inputs.reserve(static_cast<std::size_t>(spec.runs));
  for (int i = 0; i < spec.runs; ++i) {
    std::string key = spec.one_key ? "hot-" + nonce : "k" + std::to_string(i) + "-" + nonce;
    inputs.push_back(Value{{"key", std::move(key)}, {"step_ms", spec.step_ms}});
  }
  return inputs;
}

WorkerOptions worker_options(const CoordPhaseSpec& spec, Tally& tally,
                             const CountingBackend& counter) {
  WorkerOptions w;
  w.threads = spec.threads;
  w.sweeper = false;    // no sweeps counted: nothing here dies
  w.schedules = false;  // nor schedule ticks
  w.reactors = {spec.reactor};
  w.on_delivery = [&tally, &counter](const Job&, DeliveryOutcome o) {
    std::lock_guard lock(tally.mu);
    if (o == DeliveryOutcome::kFinished) {
      if (++tally.finished == tally.wanted) {
        tally.ended = SteadyClock::now();
        tally.calls_at_end = counter.counts();
        tally.round_trips_at_end = counter.round_trips();
        tally.cv.notify_all();
      }
    } else if (o == DeliveryOutcome::kSnoozed) {
      ++tally.snoozed;
    } else {
      ++tally.other;
    }
  };
  return w;
}

// Every run of `ids` completed.
Status all_completed(Backend& backend, const std::vector<std::string>& ids) {
  for (const std::string& id : ids) {
    Result<RunHeaderRow> h = backend.load_header(id);
    if (!h.ok()) return h.status();
    if (h->status != RunStatus::kCompleted) {
      return Status::Internal("run " + id + " ended " + to_string(h->status));
    }
  }
  return Status::Ok();
}

// Serves the phase's runs until the last one ends (or the timeout); fills `out`.
void serve(const CoordPhaseSpec& spec, Engine& engine, CountingBackend& counter,
           CoordPhaseResult& out) {
  Tally tally;
  tally.wanted = static_cast<std::uint64_t>(spec.runs);
  Worker worker(engine, worker_options(spec, tally, counter));
  counter.time_commits(true);
  const CallCounts calls_before = counter.counts();
  const std::uint64_t round_trips_before = counter.round_trips();
  const auto started = SteadyClock::now();
  worker.start();
  {
    std::unique_lock lock(tally.mu);
    const auto deadline = started + std::chrono::duration_cast<SteadyClock::duration>(
                                        std::chrono::duration<double>(spec.timeout_s));
    if (!tally.cv.wait_until(lock, deadline, [&] { return tally.finished >= tally.wanted; })) {
      out.status = Status::Unavailable(
          "the runs did not all end within the --timeout: " + std::to_string(tally.finished) +
          " finished, " + std::to_string(tally.snoozed) + " deliveries snoozed, " +
          std::to_string(tally.other) + " otherwise");
    }
  }
  worker.stop();
  worker.wait();
  counter.time_commits(false);
  std::lock_guard lock(tally.mu);
  out.wall_s = std::chrono::duration<double>(tally.ended - started).count();
  out.calls = tally.calls_at_end - calls_before;
  out.round_trips = tally.round_trips_at_end - round_trips_before;
  out.finished = tally.finished;
  out.snoozed = tally.snoozed;
  out.other_deliveries = tally.other;
  out.commits = counter.take_commit_us();
}

// The gaps between the phase's bodies; on one key, a body that started before the last one
// ended is an error.
Status read_bodies(const CoordPhaseSpec& spec, CoordPhaseResult& out) {
  std::vector<BodyTime> bodies = take_body_times();
  std::sort(bodies.begin(), bodies.end(),
            [](const BodyTime& a, const BodyTime& b) { return a.start_us < b.start_us; });
  const bool exclusive = spec.one_key && std::string(spec.reactor) != kBenchCoordNoneName;
  for (std::size_t i = 1; i < bodies.size(); ++i) {
    const std::int64_t gap = bodies[i].start_us - bodies[i - 1].end_us;
    if (exclusive && gap < 0) {
      return Status::Internal("two bodies on the one key overlapped by " + std::to_string(-gap) +
                              " us");
    }
    out.gaps_us.push_back(static_cast<double>(gap));
  }
  return Status::Ok();
}

}  // namespace coordination_bench

CoordPhaseResult run_coord_phase(const CoordPhaseSpec& spec) {
  using namespace coordination_bench;
  CoordPhaseResult out;
  Result<std::unique_ptr<Backend>> backend = open_backend(spec.storage, SystemClock::instance());
  if (!backend.ok()) {
    out.status = backend.status();
    return out;
  }
  auto counter = std::make_shared<CountingBackend>(std::move(backend).value());
  const std::string nonce = fresh_nonce();
  Engine engine(engine_options(spec, counter, nonce));
  register_bench_coordination(engine.registry());
  BackgroundBatch started = engine.run_many_in_background(spec.reactor, inputs_of(spec, nonce));
  if (!started.ok()) {
    out.status = started.status;
    return out;
  }
  take_body_times();  // none of another phase's
  serve(spec, engine, *counter, out);
  if (out.status.ok()) out.status = all_completed(*counter, started.run_ids);
  if (out.status.ok()) out.status = read_bodies(spec, out);
  return out;
}

}  // namespace reactor_bench
