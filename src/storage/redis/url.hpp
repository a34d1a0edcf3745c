// The Redis backend's URL: redis://[[user]:password@]host[:port][/db][?option=value&...].
// Options are listed in docs/redis.md.
#pragma once

#include <chrono>
#include <cstddef>
#include <string>

#include "reactor/status.hpp"

namespace reactor::redis {

struct RedisOptions {
  std::string host = "127.0.0.1";
  int port = 6379;
  int db = 0;
  std::string username;  // empty: AUTH with the password alone (the default user)
  std::string password;  // empty: no AUTH
  // Every key this store writes starts with it, so several stores (or test
  // cases) can share one Redis database. Must not contain '{' or '}': those
  // are kept for the per-run hash tags.
  std::string prefix = "reactor:";
  std::chrono::milliseconds connect_timeout{2000};
  // How long one request may wait for its reply (blocking waits add their own time).
  std::chrono::milliseconds command_timeout{5000};
  // How long a call keeps reconnecting (capped exponential backoff) after losing
  // its connection before it gives up with Unavailable.
  std::chrono::milliseconds reconnect_budget{5000};
  std::size_t max_idle_connections = 8;
  // The URL with its password masked, for every message.
  std::string masked_url;
};

// InvalidArgument naming the (masked) URL for anything it cannot read.
Status parse_redis_url(const std::string& url, RedisOptions& out);

}  // namespace reactor::redis
