// MetricsServer: serves a MetricsRegistry's exposition on GET /metrics
// (Content-Type: text/plain; version=0.0.4) from a thread of its own, for Prometheus to scrape.
// A worker starts one with WorkerOptions::metrics_listen; `reactor worker --metrics HOST:PORT`.
//
// Thread safety: start() and stop() from the owner's thread; scrapes are served concurrently.
#pragma once

#include <memory>
#include <string>

#include "reactor/metrics.hpp"
#include "reactor/result.hpp"

namespace reactor {

class MetricsServer {
 public:
  // Binds `listen` ("HOST:PORT"; port 0 picks a free one) and serves. InvalidArgument for a
  // listen address it cannot read; AlreadyExists when the port is in use (naming it);
  // Unavailable when it cannot bind otherwise.
  static Result<std::unique_ptr<MetricsServer>> start(std::shared_ptr<MetricsRegistry> registry,
                                                      const std::string& listen);
  ~MetricsServer();  // stop()
  MetricsServer(const MetricsServer&) = delete;
  MetricsServer& operator=(const MetricsServer&) = delete;

  // The bound port (the chosen one for port 0).
  int port() const;
  // Stops serving and joins its thread.
  void stop();

 private:
  struct Impl;
  explicit MetricsServer(std::unique_ptr<Impl> impl);
  std::unique_ptr<Impl> impl_;
};

}  // namespace reactor
