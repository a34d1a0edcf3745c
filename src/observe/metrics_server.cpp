#include "reactor/metrics_server.hpp"

#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <thread>

#include "observe/exclusive_listen.hpp"

namespace reactor {

namespace {

// Whether something listens on host:port already: httplib's bind failure does not say why.
bool port_taken(const std::string& host, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) return false;
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = host == "0.0.0.0" ? htonl(INADDR_ANY) : htonl(INADDR_LOOPBACK);
  const bool taken =
      ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 && errno == EADDRINUSE;
  ::close(fd);
  return taken;
}

}  // namespace

struct MetricsServer::Impl {
  httplib::Server http;
  std::thread thread;
  int port = 0;
};

MetricsServer::MetricsServer(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}
MetricsServer::~MetricsServer() { stop(); }

int MetricsServer::port() const { return impl_->port; }

void MetricsServer::stop() {
  if (!impl_ || !impl_->thread.joinable()) return;
  impl_->http.stop();
  impl_->thread.join();
}

Result<std::unique_ptr<MetricsServer>> MetricsServer::start(
    std::shared_ptr<MetricsRegistry> registry, const std::string& listen) {
  const auto colon = listen.rfind(':');
  int port = -1;
  if (colon != std::string::npos && colon > 0) {
    try {
      std::size_t used = 0;
      port = std::stoi(listen.substr(colon + 1), &used);
      if (used != listen.size() - colon - 1) port = -1;
    } catch (const std::exception&) {
      port = -1;
    }
  }
  if (port < 0 || port > 65535) {
    return Status::InvalidArgument("metrics listen address '" + listen + "': expected HOST:PORT");
  }
  const std::string host = listen.substr(0, colon);
  auto impl = std::make_unique<Impl>();
  listen_exclusively(impl->http);
  impl->http.Get("/metrics", [registry](const httplib::Request&, httplib::Response& res) {
    res.set_content(registry->exposition(), "text/plain; version=0.0.4; charset=utf-8");
  });
  if (port == 0) {
    impl->port = impl->http.bind_to_any_port(host);
  } else if (impl->http.bind_to_port(host, port)) {
    impl->port = port;
  } else {
    impl->port = -1;
  }
  if (impl->port < 0) {
    if (port > 0 && port_taken(host, port)) {
      return Status::AlreadyExists("metrics: port " + std::to_string(port) + " of " + host +
                                   " is in use");
    }
    return Status::Unavailable("metrics: cannot listen on " + listen);
  }
  Impl* raw = impl.get();
  // Bound and listening already: a scrape that comes before the thread runs waits in the backlog.
  raw->thread = std::thread([raw] { raw->http.listen_after_bind(); });
  return std::unique_ptr<MetricsServer>(new MetricsServer(std::move(impl)));
}

}  // namespace reactor
