// reactor-bench coordination: a lock's store requests per step, and runs/s on one hot key
// (bench/README.md, "Coordination").
#include "coordination.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>

#include "coordination_phase.hpp"
#include "saga/bench_coordination.hpp"
#include "storage/backend_url.hpp"
#include "support.hpp"

namespace reactor_bench {

using namespace reactor;
using std::chrono::milliseconds;

namespace coordination_bench {

constexpr Call kShown[] = {Call::kFetch,     Call::kCommitThenFetch, Call::kCommit,
                           Call::kTakeHolds, Call::kLease,           Call::kOther};

// "fetch 0.00, commit+fetch 1.00, ..." per run, the kinds that occurred.
std::string breakdown(const CallCounts& c, int runs) {
  std::string out;
  for (Call k : kShown) {
    if (c.of(k) == 0) continue;
    char part[64];
    std::snprintf(part, sizeof part, "%s%s %.2f", out.empty() ? "" : ", ", to_string(k),
                  static_cast<double>(c.of(k)) / runs);
    out += part;
  }
  return out;
}

bool failed(const char* what, const CoordPhaseResult& r) {
  if (r.status.ok()) return false;
  std::printf("  FAILED (%s): %s\n", what, r.status.to_string().c_str());
  return true;
}

// The three variants' requests per step; false when a phase failed.
bool requests_per_step(const CoordinationOptions& o, const std::string& storage) {
  std::printf(
      "store requests per step: one-step reactor, %d runs each on its own key, 1 worker "
      "thread, step 0 ms\n",
      o.runs);
  const std::pair<const char*, const char*> variants[] = {
      {"no lock", kBenchCoordNoneName},
      {"step with_lock", kBenchCoordStepName},
      {"reactor with_lock", kBenchCoordRunName}};
  double base = 0;
  bool first = true;
  for (const auto& [label, reactor] : variants) {
    CoordPhaseSpec spec;
    spec.storage = storage;
    spec.reactor = reactor;
    spec.runs = o.runs;
    spec.timeout_s = o.timeout_s;
    const CoordPhaseResult r = run_coord_phase(spec);
    if (failed(label, r)) return false;
    const double per = static_cast<double>(r.calls.total()) / o.runs;
    if (first) base = per;
    std::printf("  %-17s %5.2f store calls/step (%s)", label, per,
                breakdown(r.calls, o.runs).c_str());
    if (r.round_trips > 0) {
      std::printf(", %.2f round trips", static_cast<double>(r.round_trips) / o.runs);
    }
    if (!first) std::printf("; %+.2f against no lock", per - base);
    std::printf("\n");
    first = false;
  }
  std::printf("  goal: a lock costs at most 1 store request more per step\n");
  return true;
}

double median_commit_ms(const CountingBackend::CommitTimes& t) {
  std::vector<double> all = t.commit_us;
  all.insert(all.end(), t.commit_then_fetch_us.begin(), t.commit_then_fetch_us.end());
  return median(std::move(all)) / 1000;
}

struct Baseline {
  double commit_ms = 0;     // one commit: the median of the serial phase's
  double limit_per_s = 0;   // 1 / (step time + one commit)
  double serial_per_s = 0;  // the same runs, no lock, one thread
};

bool serial_baseline(const CoordinationOptions& o, const std::string& storage, Baseline& b) {
  CoordPhaseSpec spec;
  spec.storage = storage;
  spec.reactor = kBenchCoordNoneName;
  spec.runs = o.hot_runs;
  spec.step_ms = o.step_ms;
  spec.timeout_s = o.timeout_s;
  const CoordPhaseResult r = run_coord_phase(spec);
  if (failed("serial baseline", r)) return false;
  b.commit_ms = median_commit_ms(r.commits);
  b.limit_per_s = 1000.0 / (o.step_ms + b.commit_ms);
  b.serial_per_s = o.hot_runs / r.wall_s;
  std::printf(
      "  baseline: one commit %.3f ms (median of %zu, serial runs without a lock) -> 1 / (step "
      "+ commit) = %.0f runs/s; the same runs without a lock, 1 thread: %.0f runs/s (%.3f "
      "ms/run)\n",
      b.commit_ms, r.commits.commit_us.size() + r.commits.commit_then_fetch_us.size(),
      b.limit_per_s, b.serial_per_s, 1000.0 / b.serial_per_s);
  return true;
}

bool hot_phase(const CoordinationOptions& o, const std::string& storage, const Baseline& b,
               const char* label, CoordPhaseSpec spec) {
  spec.storage = storage;
  spec.reactor = kBenchCoordRunName;
  spec.runs = o.hot_runs;
  spec.step_ms = o.step_ms;
  spec.threads = o.threads;
  spec.one_key = true;
  spec.timeout_s = o.timeout_s;
  const CoordPhaseResult r = run_coord_phase(spec);
  if (failed(label, r)) return false;
  const double per_s = o.hot_runs / r.wall_s;
  const double runs = o.hot_runs;
  std::printf(
      "  %s: %.0f runs/s = %.2f of 1 / (step + commit) (%.2f of the serial unlocked rate); "
      "%.2f s\n",
      label, per_s, per_s / b.limit_per_s, per_s / b.serial_per_s, r.wall_s);
  // A run's completing commit (it fetches the next job) is the one commit+fetch it makes.
  const std::vector<double>& done = r.commits.commit_then_fetch_us;
  std::printf(
      "    per run %.2f snoozes, %.2f store calls (%s); its completing commit p50 %.3f ms, p99 "
      "%.3f ms, max %.3f ms; all commits' median %.3f ms\n",
      r.snoozed / runs, static_cast<double>(r.calls.total()) / runs,
      breakdown(r.calls, o.hot_runs).c_str(), percentile(done, 50) / 1000,
      percentile(done, 99) / 1000, percentile(done, 100) / 1000, median_commit_ms(r.commits));
  double idle_us = 0;
  for (double g : r.gaps_us) idle_us += g;
  std::printf(
      "    the lock handed over (a body's end to the next one's start): p50 %.3f ms, p90 %.3f "
      "ms, mean %.3f ms, max %.3f ms; no body ran for %.0f %% of the time\n",
      percentile(r.gaps_us, 50) / 1000, percentile(r.gaps_us, 90) / 1000,
      idle_us / std::max<std::size_t>(1, r.gaps_us.size()) / 1000,
      percentile(r.gaps_us, 100) / 1000, 100 * idle_us / 1e6 / r.wall_s);
  return true;
}

bool hot_key(const CoordinationOptions& o, const std::string& storage) {
  std::printf(
      "hot key: %d runs on one key (reactor-level with_lock), step %d ms, %d worker threads\n",
      o.hot_runs, o.step_ms, o.threads);
  Baseline b;
  if (!serial_baseline(o, storage, b)) return false;
  CoordPhaseSpec defaults;  // the engine's snooze: 1 s + up to 1 s, at most 20
  if (!hot_phase(o, storage, b, "default snooze (1000 ms + up to 1000 ms, cap 20)", defaults)) {
    return false;
  }
  // The same budget of waiting as the defaults' (20 snoozes of 1.5 s on average).
  const double mean_ms = o.short_snooze_ms + o.short_jitter_ms / 2.0;
  const int cap = static_cast<int>(std::ceil(20 * 1500.0 / std::max(mean_ms, 1.0)));
  CoordPhaseSpec shorter;
  shorter.snooze_base = milliseconds(o.short_snooze_ms);
  shorter.snooze_jitter = milliseconds(o.short_jitter_ms);
  shorter.snooze_cap = cap;
  char label[96];
  std::snprintf(label, sizeof label, "short snooze (%d ms + up to %d ms, cap %d)",
                o.short_snooze_ms, o.short_jitter_ms, cap);
  if (!hot_phase(o, storage, b, label, shorter)) return false;
  std::printf("  goal (Redis): >= 0.70 of 1 / (step + commit)\n");
  return true;
}

}  // namespace coordination_bench

int run_coordination(const CoordinationOptions& o) {
  using namespace coordination_bench;
  std::printf("reactor-bench coordination (%s)\n", machine_note().c_str());
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    std::fprintf(stderr, "reactor-bench coordination: %s\n", dir.error().c_str());
    return 1;
  }
  const std::string storage = o.storage.empty() ? dir.sqlite_url("coordination.db") : o.storage;
  std::printf("storage %s; an in-process Worker, sweeper and schedules off\n",
              storage::mask_password(storage).c_str());
  std::fflush(stdout);
  if (!requests_per_step(o, storage)) return 1;
  std::fflush(stdout);
  if (o.hot_runs > 0 && !hot_key(o, storage)) return 1;
  return 0;
}

}  // namespace reactor_bench
