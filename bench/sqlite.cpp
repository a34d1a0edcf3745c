// reactor-bench sqlite: the benchmarks of issue 3 in one run, so that every
// ratio divides figures measured minutes apart on the same machine and load.
// Order: raw commit rate, checkpoint cost, W1, raw commit rate again (the
// W1 ratio uses the mean of the two, and both are shown, so drift is seen).
#include "sqlite.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "support.hpp"

namespace reactor_bench {

namespace {

const char* verdict(bool met) { return met ? "met" : "NOT MET"; }

void row(const std::string& what, const std::string& value, const std::string& baseline,
         const std::string& ratio, const std::string& goal) {
  std::printf("%-50s %14s %14s %6s  %s\n", what.c_str(), value.c_str(), baseline.c_str(),
              ratio.c_str(), goal.c_str());
}

std::string fixed(double v, int decimals) {
  char text[32];
  std::snprintf(text, sizeof text, "%.*f", decimals, v);
  return text;
}

void print_summary(const CommitRate& before, const CommitRate& after, const CheckpointCost& cp,
                   const W1Result& w1) {
  std::printf("\nSummary\n");
  row("", "value", "baseline", "ratio", "goal");
  const double commits_per_s = (before.commits_per_s + after.commits_per_s) / 2;
  row("raw SQLite commits/s, before / after W1",
      grouped(before.commits_per_s) + " / " + grouped(after.commits_per_s), "", "", "");
  const double high = std::max(before.commits_per_s, after.commits_per_s);
  const double low = std::min(before.commits_per_s, after.commits_per_s);
  if (low > 0 && high / low > 1.5) {
    std::printf(
        "  (the two differ by %.1fx: this machine's commit latency changed during the run,\n"
        "  so the W1 ratio below divides figures from different conditions)\n",
        high / low);
  }
  if (w1.ok) {
    const double r = commits_per_s > 0 ? w1.steps_per_s / commits_per_s : 0;
    row("W1 durable steps/s vs raw commits/s", grouped(w1.steps_per_s),
        grouped(commits_per_s) + " (mean)", fixed(r, 2),
        std::string(">= 0.8 ") + verdict(r >= 0.8));
    row("W1 sagas/s", fixed(w1.sagas_per_s, 1), "", "", "");
    row("W1 latency p50 / p99 (ms)",
        grouped(w1.latency_p50_ms) + " / " + grouped(w1.latency_p99_ms), "", "", "");
  } else {
    row("W1", "failed", "", "", "");
  }
  for (const auto& s : cp.by_sync) {
    const std::string head = "checkpoint step " + std::to_string(s.long_run.steps) + " / step " +
                             std::to_string(s.short_run.steps) + ", sync=" + s.synchronous;
    row(head + ": ms", fixed(s.long_run.commit_ms, 3), fixed(s.short_run.commit_ms, 3),
        fixed(s.time_ratio(), 2), std::string("<= 1.2 ") + verdict(s.time_ratio() <= 1.2));
    row(head + ": payload B", grouped(s.long_run.payload_bytes), grouped(s.short_run.payload_bytes),
        fixed(s.payload_ratio(), 2), std::string("<= 1.2 ") + verdict(s.payload_ratio() <= 1.2));
    row(head + ": written B", grouped(s.long_run.written_bytes), grouped(s.short_run.written_bytes),
        fixed(s.written_ratio(), 2), std::string("<= 1.2 ") + verdict(s.written_ratio() <= 1.2));
  }
}

}  // namespace

int run_sqlite(const SqliteOptions& o) {
  std::printf("reactor-bench sqlite (%s)\n\n", machine_note().c_str());
  CommitRate before = measure_commit_rate(o.commit);
  print_commit_rate(before, o.commit);
  std::printf("\n");
  std::fflush(stdout);
  CheckpointCost cp = measure_checkpoint_cost(o.checkpoint);
  print_checkpoint_cost(cp, o.checkpoint);
  std::printf("\n");
  std::fflush(stdout);
  W1Result w1 = measure_w1(o.w1);
  print_w1(w1);
  std::printf("\n");
  std::fflush(stdout);
  CommitRate after = measure_commit_rate(o.commit);
  std::printf("After W1: ");
  print_commit_rate(after, o.commit);
  print_summary(before, after, cp, w1);
  return before.ok && after.ok && cp.ok && w1.ok ? 0 : 1;
}

}  // namespace reactor_bench
