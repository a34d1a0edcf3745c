// open_backend: the one place that maps a backend URL to an implementation.
#include <string_view>

#include "reactor/backend.hpp"
#include "storage/backend_url.hpp"
#include "storage/memory/backend.hpp"
#include "storage/sqlite/backend.hpp"

// REACTOR_WITH_REDIS (CMake option of the same name): 0 when the Redis backend is left out.
#ifndef REACTOR_WITH_REDIS
#define REACTOR_WITH_REDIS 1
#endif
#if REACTOR_WITH_REDIS
#include "storage/redis/backend.hpp"
#include "storage/redis/url.hpp"
#endif

namespace reactor {

namespace {

bool starts_with(std::string_view s, std::string_view prefix) {
  return s.substr(0, prefix.size()) == prefix;
}

// "sqlite:///abs/path.db", "sqlite://relative.db" or "sqlite:relative.db", with an optional
// "?synchronous=full|normal|off".
Status parse_sqlite_url(const std::string& url, SqliteOptions& out) {
  std::string_view rest = std::string_view(url).substr(std::string_view("sqlite:").size());
  if (starts_with(rest, "//")) rest.remove_prefix(2);  // "///abs" keeps its leading '/'
  std::string_view query;
  if (auto q = rest.find('?'); q != std::string_view::npos) {
    query = rest.substr(q + 1);
    rest = rest.substr(0, q);
  }
  if (rest.empty()) {
    return Status::InvalidArgument("backend URL " + url + " names no database file");
  }
  out.path = std::string(rest);
  return storage::for_each_query_option(query, [&](std::string_view name, std::string_view value) {
    if (name != "synchronous") {
      return Status::InvalidArgument("backend URL " + url + ": unknown option '" +
                                     std::string(name) + "' (known: synchronous)");
    }
    if (value == "full") {
      out.synchronous = sqlite::Synchronous::kFull;
    } else if (value == "normal") {
      out.synchronous = sqlite::Synchronous::kNormal;
    } else if (value == "off") {
      out.synchronous = sqlite::Synchronous::kOff;
    } else {
      return Status::InvalidArgument("backend URL " + url +
                                     ": synchronous must be full, normal "
                                     "or off, not '" +
                                     std::string(value) + "'");
    }
    return Status::Ok();
  });
}

}  // namespace

Result<std::unique_ptr<Backend>> open_backend(const std::string& url,
                                              std::shared_ptr<Clock> clock) {
  OpenOptions options;
  options.clock = std::move(clock);
  return open_backend(url, options);
}

Result<std::unique_ptr<Backend>> open_backend(const std::string& url, const OpenOptions& open) {
  std::shared_ptr<Clock> clock = open.clock ? open.clock : SystemClock::instance();
  std::unique_ptr<Backend> out;
  if (url == "memory:" || url == "memory://") {
    return std::unique_ptr<Backend>(std::make_unique<MemoryBackend>(std::move(clock), url));
  }
  if (starts_with(url, "sqlite:")) {
    SqliteOptions options;
    if (Status s = parse_sqlite_url(url, options); !s.ok()) return s;
    options.create = open.create;
    if (Status s = SqliteBackend::open(url, options, std::move(clock), out); !s.ok()) return s;
    return out;
  }
  if (starts_with(url, "redis://") || starts_with(url, "rediss://")) {
#if REACTOR_WITH_REDIS
    redis::RedisOptions options;
    if (Status s = redis::parse_redis_url(url, options); !s.ok()) return s;
    if (Status s = RedisBackend::open(options, out); !s.ok()) return s;
    return out;
#else
    return Status::InvalidArgument("backend URL " + storage::mask_password(url) +
                                   ": this Reactor was built without Redis "
                                   "(CMake option REACTOR_WITH_REDIS=OFF)");
#endif
  }
  return Status::InvalidArgument("unknown backend URL '" + storage::mask_password(url) +
                                 "' (expected memory:, sqlite:///path/to/file.db, "
                                 "redis://host:port/db)");
}

}  // namespace reactor
