// SpanSender: the exporter's thread. Spans are queued (bounded) and POSTed in batches to
// <endpoint>/v1/traces; whatever cannot be queued or sent is dropped and counted, never retried:
// tracing must not hold up, slow down or fail a run.
#pragma once

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <deque>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "reactor/otlp_exporter.hpp"

namespace reactor {

class SpanSender {
 public:
  // Throws std::invalid_argument for an endpoint that is not http://host[:port][/path].
  explicit SpanSender(OtlpOptions options);
  ~SpanSender();  // flushes for at most options.shutdown_flush, then joins
  SpanSender(const SpanSender&) = delete;
  SpanSender& operator=(const SpanSender&) = delete;

  // Never blocks on the network: a full queue drops the span.
  void enqueue(nlohmann::json span);
  bool flush(std::chrono::milliseconds timeout);
  std::uint64_t exported() const { return exported_.load(); }
  std::uint64_t dropped() const { return dropped_.load(); }

 private:
  void loop();
  bool post(const std::vector<nlohmann::json>& batch);

  OtlpOptions options_;
  std::string origin_;  // scheme://host:port
  std::string path_;    // <base path>/v1/traces
  std::mutex mutex_;
  std::condition_variable wake_;     // a span queued, or stopping
  std::condition_variable settled_;  // the queue emptied and nothing in flight
  std::deque<nlohmann::json> queue_;
  std::size_t in_flight_ = 0;
  bool stopping_ = false;
  std::atomic<std::uint64_t> exported_{0};
  std::atomic<std::uint64_t> dropped_{0};
  std::thread thread_;
};

}  // namespace reactor
