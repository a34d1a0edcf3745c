#include "storage/redis/connection.hpp"

#include <sys/time.h>
#include <unistd.h>

#include <charconv>
#include <utility>

namespace reactor::redis {

namespace {

timeval to_timeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

std::string reply_text(const redisReply* r) {
  return r && r->str ? std::string(r->str, r->len) : std::string();
}

// Names this process's connections in CLIENT LIST, so an operator (or a test)
// can tell them apart from other clients of the server.
std::string client_name() { return "reactor-" + std::to_string(::getpid()); }

}  // namespace

Connection::Connection(redisContext* ctx, const RedisOptions& options,
                       std::atomic<std::uint64_t>& round_trips)
    : ctx_(ctx), options_(options), round_trips_(round_trips) {}

Connection::~Connection() { redisFree(ctx_); }

Status Connection::open(const RedisOptions& options, std::atomic<std::uint64_t>& round_trips,
                        std::unique_ptr<Connection>& out) {
  const std::string where = options.masked_url + ": cannot connect to " + options.host + ":" +
                            std::to_string(options.port);
  redisContext* ctx = redisConnectWithTimeout(options.host.c_str(), options.port,
                                              to_timeval(options.connect_timeout));
  if (ctx == nullptr) return Status::Unavailable(where + ": out of memory");
  if (ctx->err) {
    Status s = Status::Unavailable(where + ": " + ctx->errstr);
    redisFree(ctx);
    return s;
  }
  redisEnableKeepAlive(ctx);
  std::unique_ptr<Connection> conn(new Connection(ctx, options, round_trips));
  conn->set_reply_timeout(options.command_timeout);

  std::vector<Command> handshake;
  if (!options.password.empty()) {
    if (options.username.empty()) {
      handshake.push_back({"AUTH", options.password});
    } else {
      handshake.push_back({"AUTH", options.username, options.password});
    }
  }
  if (options.db != 0) handshake.push_back({"SELECT", std::to_string(options.db)});
  handshake.push_back({"CLIENT", "SETNAME", client_name()});
  std::vector<Reply> replies;
  if (Status s = conn->call(handshake, replies); !s.ok()) {
    return Status::Unavailable(where + ": " + s.message());
  }
  for (const Reply& r : replies) {
    if (r->type == REDIS_REPLY_ERROR) {
      // AUTH and SELECT errors name neither the password nor anything secret.
      return Status::Unavailable(options.masked_url +
                                 ": the server refused the connection: " + reply_text(r.get()));
    }
  }
  out = std::move(conn);
  return Status::Ok();
}

void Connection::set_reply_timeout(std::chrono::milliseconds timeout) {
  redisSetTimeout(ctx_, to_timeval(timeout));
}

namespace {

void append_decimal(std::string& out, std::size_t n) {
  char digits[24];
  auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
  out.append(digits, end);
}

// The commands in the protocol's request form (an array of bulk strings),
// written straight into one buffer: a commit's arguments are its JSON bodies,
// and hiredis's own formatting builds every length with a printf-like call.
std::string encode_requests(const std::vector<Command>& commands) {
  std::size_t size = 0;
  for (const Command& command : commands) {
    size += 16;
    for (const std::string& arg : command) size += arg.size() + 16;
  }
  std::string out;
  out.reserve(size);
  for (const Command& command : commands) {
    out += '*';
    append_decimal(out, command.size());
    out += "\r\n";
    for (const std::string& arg : command) {
      out += '$';
      append_decimal(out, arg.size());
      out += "\r\n";
      out += arg;
      out += "\r\n";
    }
  }
  return out;
}

}  // namespace

Status Connection::call(const std::vector<Command>& commands, std::vector<Reply>& replies,
                        std::chrono::milliseconds extra_wait) {
  replies.clear();
  if (broken_) return Status::Unavailable(options_.masked_url + ": connection is broken");
  const std::string requests = encode_requests(commands);
  if (redisAppendFormattedCommand(ctx_, requests.data(), requests.size()) != REDIS_OK) {
    broken_ = true;
    return Status::Unavailable(options_.masked_url + ": " + ctx_->errstr);
  }
  round_trips_.fetch_add(1, std::memory_order_relaxed);
  if (extra_wait.count() > 0) set_reply_timeout(options_.command_timeout + extra_wait);
  for (std::size_t i = 0; i < commands.size(); ++i) {
    void* raw = nullptr;
    if (redisGetReply(ctx_, &raw) != REDIS_OK || raw == nullptr) {
      broken_ = true;
      replies.clear();
      const std::string why = ctx_->err ? ctx_->errstr : "no reply";
      return Status::Unavailable(options_.masked_url + ": connection lost: " + why);
    }
    replies.emplace_back(static_cast<redisReply*>(raw));
  }
  if (extra_wait.count() > 0) set_reply_timeout(options_.command_timeout);
  return Status::Ok();
}

ConnectionPool::ConnectionPool(RedisOptions options) : options_(std::move(options)) {}

ConnectionPool::Handle& ConnectionPool::Handle::operator=(Handle&& other) noexcept {
  if (this != &other) {
    give_back();
    pool_ = std::exchange(other.pool_, nullptr);
    conn_ = std::move(other.conn_);
  }
  return *this;
}

ConnectionPool::Handle::~Handle() { give_back(); }

void ConnectionPool::Handle::give_back() noexcept {
  if (pool_ && conn_) pool_->give_back(std::move(conn_));
  conn_.reset();
}

Status ConnectionPool::acquire(Handle& out) {
  {
    std::lock_guard lock(mu_);
    if (!idle_.empty()) {
      out = Handle(this, std::move(idle_.back()));
      idle_.pop_back();
      return Status::Ok();
    }
  }
  std::unique_ptr<Connection> conn;
  if (Status s = Connection::open(options_, round_trips_, conn); !s.ok()) return s;
  out = Handle(this, std::move(conn));
  return Status::Ok();
}

void ConnectionPool::give_back(std::unique_ptr<Connection> conn) {
  if (conn->broken()) return;  // closed here; the next caller connects afresh
  std::lock_guard lock(mu_);
  if (idle_.size() < options_.max_idle_connections) idle_.push_back(std::move(conn));
}

void ConnectionPool::drop_idle() {
  std::vector<std::unique_ptr<Connection>> closing;
  std::lock_guard lock(mu_);
  closing.swap(idle_);
}

}  // namespace reactor::redis
