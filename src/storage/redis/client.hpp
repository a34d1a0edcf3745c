// RedisClient: requests to one Redis server as the backend needs them, over a
// ConnectionPool. A request whose connection is lost (server restart, network
// blip) is sent again on a fresh connection, reconnecting with capped,
// jittered exponential backoff, for up to options.reconnect_budget; only then
// is it Unavailable. Every request the backend sends is therefore written so
// that sending it twice is safe (docs/redis.md, "Reconnects").
//
// Lua scripts run with EVALSHA; a server that no longer knows a script
// (restarted, SCRIPT FLUSH) answers NOSCRIPT, and the client then sends
// SCRIPT LOAD and EVALSHA again in one pipeline.
#pragma once

#include <chrono>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "reactor/status.hpp"
#include "storage/redis/connection.hpp"
#include "storage/redis/scripts.hpp"

namespace reactor::redis {

class RedisClient {
 public:
  explicit RedisClient(RedisOptions options);

  // Connects once, without retrying (a server that is not there at start-up
  // is a configuration error, reported at once), and loads every script,
  // waiting (up to the reconnect budget) while the server answers "not now"
  // (LOADING after a restart).
  Status start();

  // One command. A Redis error reply is returned as a Status (see to_status).
  // `block` is how long a blocking command (BLPOP) may wait on the server.
  Status command(const Command& cmd, Reply& out,
                 std::chrono::milliseconds block = std::chrono::milliseconds(0));
  // Runs `script` with `keys` as KEYS (script_keys()) and `args` as ARGV
  // (moved into the request: a commit's arguments carry its JSON bodies, which
  // are not copied again). Internal, sending nothing, when `keys` are not as
  // many as the script takes.
  Status eval(ScriptId script, std::vector<std::string> keys, std::vector<std::string> args,
              Reply& out);
  // `first` (a blocking command, BLPOP), then `script`, in one pipeline: the
  // server runs the script as soon as `first` returns, without waiting for
  // another request. `out` is the script's reply; an error of `first` is
  // returned as its Status.
  Status command_then_eval(const Command& first, ScriptId script, std::vector<std::string> keys,
                           std::vector<std::string> args, Reply& out,
                           std::chrono::milliseconds block);

  // `commands` as one MULTI/EXEC transaction, in one pipeline: `out` is EXEC's reply, theirs in
  // order. For reads a script would copy through Lua: a large hash costs the server (blocked
  // all along) about five times as long inside a script as read natively.
  Status transaction(const std::vector<Command>& commands, Reply& out);

  const RedisOptions& options() const { return pool_.options(); }
  // Request/response exchanges with the server so far, every kind included
  // (handshakes, script loads, retries, blocking waits).
  std::uint64_t round_trips() const { return pool_.round_trips(); }

 private:
  // Sends `commands` in one pipeline, resending them on a fresh connection
  // after a lost one or a transient refusal (LOADING, BUSY, ...).
  Status round_trip(const std::vector<Command>& commands, std::vector<Reply>& replies,
                    std::chrono::milliseconds block);
  // The start of an EVALSHA of `script` (sha, its KEYS), room made for `args`
  // arguments. Internal if the script was never loaded or takes another
  // number of keys.
  Status evalsha(ScriptId script, const std::vector<std::string>& keys, std::size_t args,
                 Command& out) const;
  // A script's reply as `out`; its error reply as a Status naming the script.
  Status script_reply(ScriptId script, Reply reply, Reply& out) const;
  // A Redis error reply as a Status naming the URL and `what`.
  Status to_status(const redisReply& reply, const std::string& what) const;

  ConnectionPool pool_;
  std::map<ScriptId, std::string> sha_;  // filled by start(), read-only afterwards
};

}  // namespace reactor::redis
