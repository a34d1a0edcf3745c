// reactor-bench checkpoint: the cost of step N's commit, a long run against a
// short one.
#pragma once

#include <string>
#include <vector>

namespace reactor_bench {

struct CheckpointOptions {
  std::string dir;
  int short_steps = 5;
  int long_steps = 500;
  // Runs of each length: few with synchronous=FULL, where a long run costs
  // seconds of fsyncs; more with OFF, where a commit takes tens of µs and its
  // time varies with the pages it happens to touch.
  int repeat_full = 20;
  int repeat_off = 100;
};

// The commit of the last step of one run length under one sync mode.
struct StepCommitCost {
  int steps = 0;
  int samples = 0;
  double commit_ms = 0;      // median wall time of the backend's commit()
  double commit_ms_p10 = 0;  // its spread: fsync latency on a VM can be bimodal
  double commit_ms_p90 = 0;
  double payload_bytes = 0;  // mean encoded size of the CommitRequest
  // Mean bytes SQLite wrote during the commit: its WAL frames (page + 24 B
  // each). Which pages a commit dirties (a B-tree split or not) varies from
  // commit to commit, so the mean, not the median, is the stable figure.
  // Commits that also ran SQLite's automatic WAL checkpoint (every ~1,000
  // frames, a cost of all the commits before) are left out and counted.
  double written_bytes = 0;
  int wal_checkpoints = 0;
  int commits_per_run = 0;  // every commit() of one run of this length
};

struct CheckpointSync {
  std::string synchronous;  // "full" or "off"
  StepCommitCost short_run;
  StepCommitCost long_run;
  double time_ratio() const;
  double payload_ratio() const;
  double written_ratio() const;
};

struct CheckpointCost {
  bool ok = false;
  std::string error;
  std::string file_system;
  std::vector<CheckpointSync> by_sync;
};

CheckpointCost measure_checkpoint_cost(const CheckpointOptions& options);
void print_checkpoint_cost(const CheckpointCost& r, const CheckpointOptions& options);

// The subcommand: measures, prints; 0 when every run ended as it must.
int run_checkpoint(const CheckpointOptions& options);

}  // namespace reactor_bench
