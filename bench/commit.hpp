// reactor-bench commit: how many SQLite transactions this machine commits per
// second with the SQLite backend's settings: the baseline of the W1 ratio.
#pragma once

#include <string>

namespace reactor_bench {

struct CommitRateOptions {
  std::string dir;     // where the scratch database goes (empty: temp dir)
  int commits = 1000;  // timed commits, after 50 untimed ones
  int value_bytes = 2048;
};

struct CommitRate {
  bool ok = false;
  std::string error;
  std::string file_system;
  int commits = 0;
  double commits_per_s = 0;
  double p50_ms = 0;
  double p99_ms = 0;
};

// One connection, WAL, synchronous=FULL, busy timeout 5 s (the backend's
// settings): `commits` transactions of one upsert of a value_bytes blob each.
CommitRate measure_commit_rate(const CommitRateOptions& options);
void print_commit_rate(const CommitRate& r, const CommitRateOptions& options);

// The subcommand: measures, prints; 0 when it ran.
int run_commit(const CommitRateOptions& options);

}  // namespace reactor_bench
