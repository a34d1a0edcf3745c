// The backends the conformance suite runs against: one factory per backend,
// listed in ConformanceBackends. Adding a backend (Redis) means writing one
// more factory here; no test changes.
//
// A factory owns what one test needs and cleans it up in its destructor:
//   static constexpr const char* kName;        // test name suffix
//   Status open(std::unique_ptr<Backend>&);    // a fresh, empty backend
//   void advance(Duration);                    // moves the time the backend judges expiry by
//   std::int64_t now_ms() const;               // that time, in Unix milliseconds
// A factory may be opened more than once (the same store each time).
#pragma once

#include <gtest/gtest.h>
#include <stdlib.h>

#include <filesystem>
#include <memory>
#include <string>

#include "reactor/backend.hpp"
#include "reactor/clock.hpp"

namespace reactor::conformance {

// Expiry judged by a ManualClock the test moves: no test sleeps.
class MemoryBackendFactory {
 public:
  static constexpr const char* kName = "memory";

  Status open(std::unique_ptr<Backend>& out) { return open_backend("memory:", clock_, out); }
  void advance(Duration d) { clock_->advance(d); }
  std::int64_t now_ms() const { return to_unix_ms(clock_->now()); }

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
    return open_backend("sqlite://" + dir_ + "/conformance.db", clock_, out);
  }
  void advance(Duration d) { clock_->advance(d); }
  std::int64_t now_ms() const { return to_unix_ms(clock_->now()); }

 private:
  std::string dir_;
  std::shared_ptr<ManualClock> clock_ = std::make_shared<ManualClock>();
};

using ConformanceBackends = ::testing::Types<MemoryBackendFactory, SqliteBackendFactory>;

struct BackendName {
  template <typename Factory>
  static std::string GetName(int) {
    return Factory::kName;
  }
};

}  // namespace reactor::conformance
