// Dashboard (reactor/dashboard.hpp): an httplib server on a thread of its own, its routes mounted
// by routes.cpp.
#include "reactor/dashboard.hpp"

#include <httplib.h>

#include <chrono>
#include <thread>
#include <vector>

#include "observe/exclusive_listen.hpp"
#include "web/dashboard/routes.hpp"

namespace reactor {

struct Dashboard::Impl {
  Impl(Engine& engine, DashboardOptions o)
      : options(std::move(o)), api{engine, Inspector(*engine.backend())}, guard(options) {}

  DashboardOptions options;
  web::Api api;
  web::Guard guard;
  MetricsRegistry metrics;  // the store's gauges, served on /metrics
  httplib::Server server;
  std::thread thread;
  int bound = 0;
};

Dashboard::Dashboard(Engine& engine, DashboardOptions options) {
  if (!engine.backend()) throw std::invalid_argument("Dashboard: the engine has no backend");
  impl_ = std::make_unique<Impl>(engine, std::move(options));
  web::mount_routes(impl_->server, impl_->api, impl_->guard);
  web::add_store_metrics(impl_->metrics, impl_->api);
  add_text_route("/metrics", [impl = impl_.get()] { return impl->metrics.exposition(); });
}

Dashboard::~Dashboard() { stop(); }

Status Dashboard::start() {
  const DashboardOptions& o = impl_->options;
  if (!is_loopback_host(o.host) && o.token.empty()) {
    return Status::InvalidArgument("the dashboard binds to " + o.host +
                                   ", which is not loopback: give it a token (--token or "
                                   "--token-file)");
  }
  impl_->server.new_task_queue = [] { return new httplib::ThreadPool(4); };
  listen_exclusively(impl_->server);
  const std::string host = o.host.starts_with("[") ? o.host.substr(1, o.host.size() - 2) : o.host;
  const int port = o.port == 0 ? impl_->server.bind_to_any_port(host)
                               : (impl_->server.bind_to_port(host, o.port) ? o.port : -1);
  if (port < 0) {
    return Status::Unavailable("the dashboard cannot listen on " + o.host + ":" +
                               std::to_string(o.port));
  }
  impl_->bound = port;
  impl_->thread = std::thread([this] { impl_->server.listen_after_bind(); });
  // Serving once it runs its accept loop: stop() before that would not reach the loop (this
  // httplib has no wait_until_ready). It starts at once; the bound only keeps a stuck start
  // from hanging the caller.
  for (int i = 0; i < 5000 && !impl_->server.is_running(); ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(1));
  }
  return Status::Ok();
}

void Dashboard::stop() {
  if (!impl_ || !impl_->thread.joinable()) return;
  impl_->server.stop();
  impl_->thread.join();
}

int Dashboard::port() const { return impl_->bound ? impl_->bound : impl_->options.port; }

void Dashboard::add_text_route(const std::string& path, std::function<std::string()> body,
                               const std::string& content_type) {
  impl_->server.Get(path, [body = std::move(body), content_type](const httplib::Request&,
                                                                 httplib::Response& res) {
    res.set_content(body(), content_type);
  });
}

}  // namespace reactor
