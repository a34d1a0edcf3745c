// Connections to one Redis server over hiredis (synchronous API): a Connection
// is authenticated and on its database once open; a ConnectionPool lends one
// to each concurrently calling thread. Every request/response exchange is
// counted as one round trip, the handshake included. hiredis never leaves
// src/storage/redis/.
#pragma once

#include <hiredis/hiredis.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "reactor/status.hpp"
#include "storage/redis/url.hpp"

namespace reactor::redis {

struct ReplyDeleter {
  void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};
// One reply, owned. A Redis error reply (REDIS_REPLY_ERROR) is a reply like
// any other here; the caller decides what it means.
using Reply = std::unique_ptr<redisReply, ReplyDeleter>;

// One command: its arguments, binary-safe.
using Command = std::vector<std::string>;

class Connection {
 public:
  // Connects within options.connect_timeout, then sends AUTH (when a password
  // is set), SELECT (db != 0) and CLIENT SETNAME in one round trip.
  // Unavailable naming the masked URL when the server cannot be reached or
  // refuses us. `round_trips` must outlive the connection.
  static Status open(const RedisOptions& options, std::atomic<std::uint64_t>& round_trips,
                     std::unique_ptr<Connection>& out);
  ~Connection();
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;

  // Writes `commands` at once and reads one reply per command: one round
  // trip. `extra_wait` lengthens the reply timeout for a blocking command.
  // Unavailable on an I/O error or timeout; the connection is then broken()
  // and must be discarded (whether the server ran the commands is unknown).
  Status call(const std::vector<Command>& commands, std::vector<Reply>& replies,
              std::chrono::milliseconds extra_wait = std::chrono::milliseconds(0));

  bool broken() const { return broken_; }

 private:
  Connection(redisContext* ctx, const RedisOptions& options,
             std::atomic<std::uint64_t>& round_trips);
  void set_reply_timeout(std::chrono::milliseconds timeout);

  redisContext* ctx_;
  const RedisOptions& options_;
  std::atomic<std::uint64_t>& round_trips_;
  bool broken_ = false;
};

// Connections for one server. A thread takes an idle one or opens a new one,
// and gives it back when done; up to max_idle_connections are kept. Thread-safe.
class ConnectionPool {
 public:
  explicit ConnectionPool(RedisOptions options);

  class Handle {
   public:
    Handle() = default;
    Handle(ConnectionPool* pool, std::unique_ptr<Connection> conn)
        : pool_(pool), conn_(std::move(conn)) {}
    Handle(Handle&& other) noexcept = default;
    Handle& operator=(Handle&& other) noexcept;
    ~Handle();
    Connection& operator*() const { return *conn_; }
    Connection* operator->() const { return conn_.get(); }

   private:
    void give_back() noexcept;

    ConnectionPool* pool_ = nullptr;
    std::unique_ptr<Connection> conn_;
  };

  // An idle connection, or a new one (Unavailable if it cannot be opened).
  // A broken connection is closed, never given back.
  Status acquire(Handle& out);
  // Closes every idle connection (the next acquire connects afresh).
  void drop_idle();

  const RedisOptions& options() const { return options_; }
  std::uint64_t round_trips() const { return round_trips_.load(std::memory_order_relaxed); }

 private:
  void give_back(std::unique_ptr<Connection> conn);

  const RedisOptions options_;
  std::atomic<std::uint64_t> round_trips_{0};
  std::mutex mu_;
  std::vector<std::unique_ptr<Connection>> idle_;
};

}  // namespace reactor::redis
