// Dashboard: a web view of the runs in an engine's store — runs list, run page (DAG, timeline,
// maps, interrupts), coordination — and its JSON API under /api/ (docs/observability.md). It reads
// through the Inspector and the engine's read calls and acts through the Engine's own operations
// (cancel, undo, retry, resume_halted, resume_interrupt, re-enqueue); nothing backend-specific.
//
// GET /metrics answers the store's gauges in Prometheus' text format (its queues' depth and
// oldest due job, its runs by status), read on every scrape.
//
// Security: it binds to loopback by default. A token (DashboardOptions::token) is required to
// bind elsewhere; with one, every request carries it (Authorization: Bearer <token>, or the cookie
// that GET /?token=<token> sets). Actions are POSTs carrying the session's CSRF token in the
// X-CSRF-Token header; a request whose Origin or Host is not the dashboard's is refused. No page
// or API response contains an input the reactor's schema marks redacted().
//
// Thread safety: start/stop/add_text_route from one thread; requests are served on the server's
// own threads, each reading the engine's store (whose calls may come from several threads).
// Durable: nothing of its own; an action is as durable as the Engine call it makes.
#pragma once

#include <functional>
#include <memory>
#include <string>

#include "reactor/engine.hpp"
#include "reactor/status.hpp"

namespace reactor {

struct DashboardOptions {
  std::string host = "127.0.0.1";  // where to listen; a non-loopback host needs a token
  int port = 8080;                 // 0: a free port, see Dashboard::port()
  std::string token;               // empty: none (loopback only)
};

// Whether `host` names the loopback interface: "127.x.y.z", "::1", "[::1]", "localhost".
bool is_loopback_host(const std::string& host);

class Dashboard {
 public:
  // `engine` (its registry: the user's reactors; its backend: the store) must outlive the
  // dashboard and have a backend.
  Dashboard(Engine& engine, DashboardOptions options = {});
  ~Dashboard();
  Dashboard(const Dashboard&) = delete;
  Dashboard& operator=(const Dashboard&) = delete;

  // Binds and serves on a thread of its own. InvalidArgument: a non-loopback host without a
  // token, or an engine without a backend; Unavailable: the address cannot be bound.
  Status start();
  // Stops serving and joins the thread; requests in flight finish first. Idempotent.
  void stop();
  // The port bound (after start()), else the one asked for.
  int port() const;

  // Mounts GET `path` (e.g. "/metrics") answering `body()` as `content_type`, behind the same
  // token check as the rest. Call before start().
  void add_text_route(const std::string& path, std::function<std::string()> body,
                      const std::string& content_type = "text/plain; version=0.0.4");

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace reactor
