// reactor-bench checkpoint: does a checkpoint cost more late in a long run?
// Runs BenchSaga of 5 and of 500 steps durably in this process (Engine::run on
// SQLite) under a MeteredBackend, and compares the commit of the last step of
// each: wall time at Backend::commit, the request's payload bytes, and the
// bytes SQLite wrote (its WAL frames). Both under synchronous=FULL and OFF:
// with OFF no fsync hides a growth in the work a commit does.
#include "checkpoint.hpp"

#include <algorithm>
#include <cstdio>

#include "metered_backend.hpp"
#include "reactor/reactor.hpp"
#include "saga/bench_saga.hpp"
#include "support.hpp"

namespace reactor_bench {

using namespace reactor;

namespace {

// The commit that recorded step `steps` as completed (the last step's
// checkpoint, not the run's final header commit after it).
const MeteredCommit* last_step_commit(const std::vector<MeteredCommit>& commits, int steps) {
  const auto index = static_cast<std::uint32_t>(steps - 1);
  for (const auto& c : commits) {
    for (const auto& [i, body] : c.steps) {
      if (i == index && Value::parse(body).value("status", "") == "completed") return &c;
    }
  }
  return nullptr;
}

double ratio(double long_run, double short_run) { return short_run > 0 ? long_run / short_run : 0; }

double mean(const std::vector<double>& values) {
  double sum = 0;
  for (double v : values) sum += v;
  return values.empty() ? 0 : sum / static_cast<double>(values.size());
}

struct Samples {
  std::vector<double> ms, payload, written;
  int wal_checkpoints = 0;
  int commits_per_run = 0;

  StepCommitCost summary(int steps) const {
    StepCommitCost c;
    c.steps = steps;
    c.samples = static_cast<int>(ms.size());
    c.commit_ms = median(ms);
    c.commit_ms_p10 = percentile(ms, 10);
    c.commit_ms_p90 = percentile(ms, 90);
    c.payload_bytes = mean(payload);
    c.written_bytes = mean(written);
    c.wal_checkpoints = wal_checkpoints;
    c.commits_per_run = commits_per_run;
    return c;
  }
};

// Whether a commit wrote WAL frames and nothing else (after a WAL restart,
// also the 32-byte WAL header). A commit that ran the automatic checkpoint
// wrote database pages too, which breaks the whole number of frames.
bool wal_frames_only(std::int64_t written, std::int64_t frame_bytes) {
  return written >= 0 && (written % frame_bytes == 0 || written % frame_bytes == 32);
}

// One durable run of `def`; appends its last step's commit to `out`.
Status measure_one(Engine& engine, MeteredBackend& metered, const Definition& def, int steps,
                   int seq, std::int64_t frame_bytes, Samples& out) {
  const double now_ms = static_cast<double>(to_unix_ms(SystemClock::instance()->now()));
  metered.take_commits();
  RunResult r = engine.run(def, bench_saga_input(seq, now_ms));
  std::vector<MeteredCommit> commits = metered.take_commits();
  if (r.status != RunStatus::kCompleted || r.value.value("counter", -1) != steps) {
    return Status::Internal("the " + std::to_string(steps) + "-step run ended " +
                            to_string(r.status) + " with value " + r.value.dump() +
                            (r.error ? ": " + r.error->message : ""));
  }
  const MeteredCommit* c = last_step_commit(commits, steps);
  if (c == nullptr || !c->ok) {
    return Status::Internal("no successful commit of step " + std::to_string(steps) + " among " +
                            std::to_string(commits.size()));
  }
  out.ms.push_back(c->ms);
  out.payload.push_back(static_cast<double>(c->payload));
  if (wal_frames_only(c->written, frame_bytes)) {
    out.written.push_back(static_cast<double>(c->written));
  } else {
    ++out.wal_checkpoints;
  }
  out.commits_per_run = static_cast<int>(commits.size());
  return Status::Ok();
}

Status measure_sync(const ScratchDir& dir, const CheckpointOptions& o, const std::string& sync,
                    CheckpointSync& out) {
  const std::string file = "checkpoint-" + sync + ".db";
  Result<std::unique_ptr<Backend>> sqlite =
      open_backend(dir.sqlite_url(file, "?synchronous=" + sync), SystemClock::instance());
  Status s = sqlite.status();
  if (!s.ok()) return s;
  const int page_size = sqlite_page_size(dir.path() + "/" + file);
  if (page_size == 0) return Status::Internal("cannot read the page size of " + file);
  const std::int64_t frame_bytes = page_size + 24;  // a WAL frame: its header, then the page
  auto metered = std::make_shared<MeteredBackend>(std::move(sqlite).value());
  EngineOptions options;
  options.backend = metered;
  Engine engine(std::move(options));
  const Definition short_def = bench_saga({o.short_steps, 0, nullptr});
  const Definition long_def = bench_saga({o.long_steps, 0, nullptr});

  Samples short_samples, long_samples, warm_up;
  int seq = 0;
  // One untimed run of each first: the file, schema and statement caches are warm for all.
  if (s = measure_one(engine, *metered, short_def, o.short_steps, seq++, frame_bytes, warm_up);
      !s.ok()) {
    return s;
  }
  if (s = measure_one(engine, *metered, long_def, o.long_steps, seq++, frame_bytes, warm_up);
      !s.ok())
    return s;
  // Alternated, so both lengths meet the same database size and machine load.
  const int repeat = sync == "off" ? o.repeat_off : o.repeat_full;
  for (int rep = 0; rep < repeat; ++rep) {
    s = measure_one(engine, *metered, short_def, o.short_steps, seq++, frame_bytes, short_samples);
    if (!s.ok()) return s;
    s = measure_one(engine, *metered, long_def, o.long_steps, seq++, frame_bytes, long_samples);
    if (!s.ok()) return s;
  }
  out.synchronous = sync;
  out.short_run = short_samples.summary(o.short_steps);
  out.long_run = long_samples.summary(o.long_steps);
  return Status::Ok();
}

void print_row(const std::string& sync, const StepCommitCost& c) {
  char spread[48];
  std::snprintf(spread, sizeof spread, "%.3f-%.3f", c.commit_ms_p10, c.commit_ms_p90);
  std::printf("  %-5s %6d %8d %10.3f %13s %10s %10s %12d", sync.c_str(), c.steps, c.samples,
              c.commit_ms, spread, grouped(c.payload_bytes).c_str(),
              grouped(c.written_bytes).c_str(), c.commits_per_run);
  if (c.wal_checkpoints > 0) std::printf("  (%d WAL checkpoint(s) left out)", c.wal_checkpoints);
  std::printf("\n");
}

const char* verdict(double r) { return r <= 1.2 ? "met" : "NOT MET"; }

}  // namespace

double CheckpointSync::time_ratio() const { return ratio(long_run.commit_ms, short_run.commit_ms); }
double CheckpointSync::payload_ratio() const {
  return ratio(long_run.payload_bytes, short_run.payload_bytes);
}
double CheckpointSync::written_ratio() const {
  return ratio(long_run.written_bytes, short_run.written_bytes);
}

CheckpointCost measure_checkpoint_cost(const CheckpointOptions& o) {
  CheckpointCost r;
  ScratchDir dir(o.dir);
  if (dir.path().empty()) {
    r.error = dir.error();
    return r;
  }
  r.file_system = file_system_of(dir.path());
  for (const char* sync : {"full", "off"}) {
    CheckpointSync one;
    Status s = measure_sync(dir, o, sync, one);
    if (!s.ok()) {
      r.error = std::string("synchronous=") + sync + ": " + s.to_string();
      return r;
    }
    r.by_sync.push_back(one);
  }
  r.ok = true;
  return r;
}

void print_checkpoint_cost(const CheckpointCost& r, const CheckpointOptions& o) {
  std::printf(
      "Checkpoint cost: the commit of step N of an N-step BenchSaga run (Engine::run on SQLite,\n"
      "%s), timed at Backend::commit; %d (FULL) / %d (OFF) runs of each length, alternated.\n"
      "ms = median, with p10-p90; payload = mean bytes of ids and JSON bodies in the\n"
      "CommitRequest (+8 B per integer field); written = mean bytes SQLite wrote during the\n"
      "commit (WAL frames, page + 24 B each), leaving out commits that ran the automatic WAL\n"
      "checkpoint.\n",
      r.file_system.c_str(), o.repeat_full, o.repeat_off);
  if (!r.ok) {
    std::printf("  failed: %s\n", r.error.c_str());
    return;
  }
  std::printf("  %-5s %6s %8s %10s %13s %10s %10s %12s\n", "sync", "steps", "samples", "commit ms",
              "p10-p90 ms", "payload B", "written B", "commits/run");
  for (const auto& s : r.by_sync) {
    print_row(s.synchronous, s.short_run);
    print_row(s.synchronous, s.long_run);
    std::printf("  %-5s %6s %8s %10.2f %13s %10.2f %10.2f   goal <= 1.2: time %s, bytes %s\n",
                s.synchronous.c_str(), "ratio", "", s.time_ratio(), "", s.payload_ratio(),
                s.written_ratio(), verdict(s.time_ratio()),
                verdict(std::max(s.payload_ratio(), s.written_ratio())));
  }
}

int run_checkpoint(const CheckpointOptions& options) {
  std::printf("reactor-bench checkpoint (%s)\n\n", machine_note().c_str());
  CheckpointCost r = measure_checkpoint_cost(options);
  print_checkpoint_cost(r, options);
  return r.ok ? 0 : 1;
}

}  // namespace reactor_bench
