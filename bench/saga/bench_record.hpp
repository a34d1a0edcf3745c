// BenchRecord: the `bench:*` writes of the peer benchmark (WORKLOADS.md of
// the peer harness, bench/README.md): the step bodies of BenchSaga report to
// the harness's Redis, and a worker announces that it can take work. This is
// measurement plumbing of the benchmark, on its own small hiredis connection;
// the engine knows nothing of it.
//
// Configured from the harness's environment: BENCH_REDIS_HOST,
// BENCH_REDIS_PORT, BENCH_REDIS_PASSWORD (BENCH_INSTRUMENT=1 adds the
// execution log). Without BENCH_REDIS_PORT there is no recorder.
#pragma once

#include <memory>
#include <mutex>
#include <string>
#include <vector>

struct redisContext;

namespace reactor_bench {

class BenchRecord {
 public:
  // nullptr when the environment names no harness Redis.
  static std::shared_ptr<BenchRecord> from_env();
  BenchRecord(std::string host, int port, std::string password, bool instrument);
  ~BenchRecord();
  BenchRecord(const BenchRecord&) = delete;
  BenchRecord& operator=(const BenchRecord&) = delete;

  bool instrumented() const { return instrument_; }

  // One command; connects (or reconnects once after a lost connection) as
  // needed. Returns an empty string on success, else why it failed. `nil`,
  // when given, says whether the reply was nil (a blocking pop that timed out).
  std::string command(const std::vector<std::string>& args, bool* nil = nullptr);

  // SADD bench:ready <this process's pid>.
  std::string announce_ready();

 private:
  std::string connect_locked();

  const std::string host_;
  const int port_;
  const std::string password_;
  const bool instrument_;
  std::mutex mu_;
  redisContext* ctx_ = nullptr;
};

// Wall-clock milliseconds since the Unix epoch, with sub-ms precision (the
// harness's clock).
double bench_now_ms();

}  // namespace reactor_bench
