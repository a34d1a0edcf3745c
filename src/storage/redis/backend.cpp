#include "storage/redis/backend.hpp"

#include "storage/redis/call.hpp"
#include "storage/redis/reply.hpp"

namespace reactor {

using redis::element;
using redis::integer;
using redis::ScriptId;
using redis::text;

RedisBackend::RedisBackend(redis::RedisOptions options) : client_(std::move(options)) {}

Status RedisBackend::open(const redis::RedisOptions& options, std::unique_ptr<Backend>& out) {
  std::unique_ptr<RedisBackend> backend(new RedisBackend(options));
  Status s = backend->client_.start();
  std::int64_t version = 0;
  if (s.ok()) {
    s = backend->run(
        ScriptId::kInit, {},
        {std::to_string(redis::kLayoutVersion), std::to_string(redis::kOldestUpgradableLayout)},
        [&](const redisReply& r) {
          version = integer(r);
          return Status::Ok();
        });
  }
  if (s.ok() && version != redis::kLayoutVersion) {
    s = Status::Unavailable(options.masked_url + ": keys under prefix '" + options.prefix +
                            "' have layout version " + std::to_string(version) + ", " +
                            (version > redis::kLayoutVersion ? "newer than" : "older than") +
                            " the one this build reads (" + std::to_string(redis::kLayoutVersion) +
                            "); no migration between them exists yet: finish or drain those runs "
                            "with the build that wrote them, or use another prefix");
  }
  // Every message above starts with the masked URL.
  if (!s.ok()) return Status::Unavailable("cannot open " + s.message());
  out = std::move(backend);
  return Status::Ok();
}

std::string RedisBackend::describe() const { return client_.options().masked_url; }

std::uint64_t RedisBackend::round_trips() const { return client_.round_trips(); }

}  // namespace reactor
