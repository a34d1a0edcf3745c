// The backends the conformance suite runs against: one factory per backend,
// listed in ConformanceBackends. Adding a backend means writing one more
// factory here; no test changes.
//
// A factory owns what one test needs and cleans it up in its destructor:
//   static constexpr const char* kName;        // test name suffix
//   Status open(std::unique_ptr<Backend>&);    // a fresh, empty backend
//   void advance(Duration);                    // moves the time the backend judges expiry by
//   std::int64_t now_ms() const;               // that time, in Unix milliseconds
//   std::shared_ptr<Clock> clock() const;      // that clock, for an engine over the backend
// A factory may be opened more than once (the same store each time).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <atomic>
#include <filesystem>
#include <memory>
#include <string>
#include <thread>

#include "conformance/redis_test_server.hpp"
#include "reactor/backend.hpp"
#include "reactor/clock.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {

// Expiry judged by a ManualClock the test moves: no test sleeps.
class MemoryBackendFactory {
 public:
  static constexpr const char* kName = "memory";

  Status open(std::unique_ptr<Backend>& out) {
    return assign_or_status(out, open_backend("memory:", clock_));
  }
  void advance(Duration d) { clock_->advance(d); }
  std::int64_t now_ms() const { return to_unix_ms(clock_->now()); }
  // The clock the backend judges expiry by, for an engine over it.
  std::shared_ptr<Clock> clock() const { return clock_; }

 private:
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
};

// A fresh database file in its own temporary directory per test, removed at teardown.
class SqliteBackendFactory {
 public:
  static constexpr const char* kName = "sqlite";

  SqliteBackendFactory() {
    char tmpl[] = "/tmp/reactor-conformance-XXXXXX";
    if (const char* d = ::mkdtemp(tmpl)) dir_ = d;
  }
  ~SqliteBackendFactory() {
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  SqliteBackendFactory(const SqliteBackendFactory&) = delete;
  SqliteBackendFactory& operator=(const SqliteBackendFactory&) = delete;

  Status open(std::unique_ptr<Backend>& out) {
    if (dir_.empty()) return Status::Unavailable("mkdtemp failed");
    return assign_or_status(out, open_backend("sqlite://" + dir_ + "/conformance.db", clock_));
  }
  void advance(Duration d) { clock_->advance(d); }
  std::int64_t now_ms() const { return to_unix_ms(clock_->now()); }
  std::shared_ptr<Clock> clock() const { return clock_; }

 private:
  std::string dir_;
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
};

// The test Redis server (redis_test_server.hpp), under a key prefix of this
// test's own: tests running in parallel share the server, never a key. The
// keys are deleted at teardown. Expiry is judged by the server's clock, which
// no test can move, so advance() really waits: the suite keeps such waits
// short. Without a server the cases fail, naming what is missing.
class RedisBackendFactory {
 public:
  static constexpr const char* kName = "redis";

  RedisBackendFactory() : url_(test_redis_url()) {
    static std::atomic<int> counter{0};
    prefix_ = "conformance:" + std::to_string(::getpid()) + ":" + std::to_string(++counter) + ":";
    if (!url_.empty()) raw_ = std::make_unique<RawRedis>(url_);
  }
  ~RedisBackendFactory() {
    if (raw_ && raw_->error().empty()) raw_->delete_keys(prefix_);
  }
  RedisBackendFactory(const RedisBackendFactory&) = delete;
  RedisBackendFactory& operator=(const RedisBackendFactory&) = delete;

  Status open(std::unique_ptr<Backend>& out) {
    if (url_.empty()) return Status::Unavailable(no_test_redis_message());
    if (!raw_->error().empty()) return Status::Unavailable(raw_->error());
    return assign_or_status(out, open_backend(url(), nullptr));
  }
  void advance(Duration d) { std::this_thread::sleep_for(d); }
  std::int64_t now_ms() const { return raw_ ? raw_->time_ms() : 0; }
  std::shared_ptr<Clock> clock() const { return SystemClock::instance(); }

  // The URL open() uses, with this test's key prefix.
  std::string url() const { return with_url_option(url_, "prefix", prefix_); }
  const std::string& prefix() const { return prefix_; }
  RawRedis& raw() { return *raw_; }

 private:
  std::string url_;
  std::string prefix_;
  std::unique_ptr<RawRedis> raw_;
};

using ConformanceBackends =
    ::testing::Types<MemoryBackendFactory, SqliteBackendFactory, RedisBackendFactory>;

struct BackendName {
  template <typename Factory>
  static std::string GetName(int) {
    return Factory::kName;
  }
};

}  // namespace reactor::conformance
