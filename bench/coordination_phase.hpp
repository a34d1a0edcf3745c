// One phase of `reactor-bench coordination`: `runs` runs of one BenchCoord* reactor started in
// the background (in batches, before anything serves them), then served by an in-process Worker
// of `threads` threads on a fresh engine and connection, the store's calls counted and its
// commits timed, until the last run ends. Every run must complete. The phase's queue and keys
// carry a fresh nonce, so phases and repeated invocations on one store never meet. On one key,
// two bodies that overlap fail the phase: the lock did not exclude.
#pragma once

#include <optional>
#include <string>

#include "counting_backend.hpp"
#include "reactor/reactor.hpp"

namespace reactor_bench {

struct CoordPhaseSpec {
  std::string storage;
  const char* reactor = nullptr;  // kBenchCoord*Name
  int runs = 0;
  int step_ms = 0;
  int threads = 1;
  bool one_key = false;  // every run on one key; else each run its own
  // The engine's DurabilityOptions::lock_snooze_*; unset: the engine's defaults.
  std::optional<reactor::Duration> snooze_base, snooze_jitter;
  std::optional<int> snooze_cap;
  double timeout_s = 600;
};

struct CoordPhaseResult {
  reactor::Status status;
  double wall_s = 0;              // from the worker's start to the last run's end
  CallCounts calls;               // the store calls over that time (this process: all of them)
  std::uint64_t round_trips = 0;  // the same time's exchanges with a store server (Redis)
  CountingBackend::CommitTimes commits;
  std::uint64_t finished = 0, snoozed = 0, other_deliveries = 0;  // deliveries, by outcome
  // From each body's end to the next body's start, the bodies in order (one key: the lock's
  // hand-overs), in microseconds.
  std::vector<double> gaps_us;
};

CoordPhaseResult run_coord_phase(const CoordPhaseSpec& spec);

}  // namespace reactor_bench
