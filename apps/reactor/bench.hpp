// What the `reactor bench` commands measure, as values, so that `bench sqlite`
// can run them all and print one table of ratios against baselines measured
// in the same run. Each benchmark lives in its own bench_<name>.cpp; the
// shared plumbing (temporary directory, statistics, /proc readings) in
// bench_support.cpp.
#pragma once

#include <sys/types.h>

#include <cstdint>
#include <string>
#include <vector>

namespace reactor_cli::bench {

// ---------------------------------------------------------------------------------------------
// Shared plumbing
// ---------------------------------------------------------------------------------------------

// A fresh directory for one benchmark's database files, removed with
// everything in it when this goes away.
class ScratchDir {
 public:
  // Under `parent` (empty: the system's temporary directory). path() is empty
  // when it could not be created; error() says why.
  explicit ScratchDir(const std::string& parent);
  ~ScratchDir();
  ScratchDir(const ScratchDir&) = delete;
  ScratchDir& operator=(const ScratchDir&) = delete;

  const std::string& path() const { return path_; }
  const std::string& error() const { return error_; }
  // "sqlite:///<dir>/<file>" with `query` appended ("?synchronous=off").
  std::string sqlite_url(const std::string& file, const std::string& query = "") const;

 private:
  std::string path_;
  std::string error_;
};

// The file system a path lives on ("ext4", "tmpfs", ...; "unknown" otherwise):
// on tmpfs an fsync costs nothing, which the reader of a figure must know.
std::string file_system_of(const std::string& path);
// "2 CPUs, load average 1.93" for the header of every report.
std::string machine_note();

// Nearest-rank percentile (p in 0..100) of `values`; 0 for none.
double percentile(std::vector<double> values, double p);
double median(std::vector<double> values);

// write(2)/pwrite(2) bytes of a process so far (/proc/<pid>/io wchar); -1
// when unreadable. pid 0: this process.
std::int64_t written_bytes(pid_t pid = 0);
// User + system CPU seconds of a process so far (/proc/<pid>/stat); -1 when unreadable.
double cpu_seconds(pid_t pid);

// The page size of an SQLite database file, read from its header; 0 when unreadable.
int sqlite_page_size(const std::string& path);

// "1,234" for counts in tables.
std::string grouped(double value);

// ---------------------------------------------------------------------------------------------
// bench commit: the raw SQLite commit rate of this machine
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// bench checkpoint: the cost of step N's commit, short run against long run
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// bench w1: 2,000 five-step sagas through worker processes
// ---------------------------------------------------------------------------------------------

struct W1Options {
  int sagas = 2000;
  int steps = 5;
  int workers = 2;
  int step_ms = 0;
  std::string storage;  // sqlite URL of an empty store; empty: a scratch file under dir
  std::string dir;
  double timeout_s = 600;
};

struct W1Result {
  bool ok = false;    // every saga completed with counter == steps
  std::string error;  // why not
  std::string storage;
  std::string file_system;
  int sagas = 0;
  int steps = 0;
  int workers = 0;
  double enqueue_s = 0;  // t0 → the last bulk commit returned
  double wall_s = 0;     // t0 → the last saga's terminal commit
  double sagas_per_s = 0;
  double steps_per_s = 0;
  double latency_p50_ms = 0;  // t_enq → terminal commit, from the stored records
  double latency_p99_ms = 0;
  double worker_cpu_ms_per_step = -1;   // utime+stime of all workers / steps
  double worker_written_per_step = -1;  // bytes the workers wrote / steps
};

W1Result measure_w1(const W1Options& options);
void print_w1(const W1Result& r);

// ---------------------------------------------------------------------------------------------
// bench redis-commit: the commit-script rate of a Redis server (the peer benchmark's baseline)
// ---------------------------------------------------------------------------------------------

struct RedisCommitOptions {
  std::string storage;  // redis:// URL; keys go under the prefix reactor-bench-commit:
  int connections = 2;
  int sagas = 2000;  // runs per connection, each taking `steps` step commits
  int steps = 5;
};

}  // namespace reactor_cli::bench
