#include "saga/bench_record.hpp"

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>

namespace reactor_bench {

namespace {

std::string harness_env(const char* name, const char* fallback) {
  const char* v = std::getenv(name);
  return v != nullptr && *v != '\0' ? v : fallback;
}

}  // namespace

double bench_now_ms() {
  return std::chrono::duration<double, std::milli>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

std::shared_ptr<BenchRecord> BenchRecord::from_env() {
  const std::string port = harness_env("BENCH_REDIS_PORT", "");
  if (port.empty()) return nullptr;
  return std::make_shared<BenchRecord>(harness_env("BENCH_REDIS_HOST", "127.0.0.1"),
                                       std::atoi(port.c_str()), harness_env("BENCH_REDIS_PASSWORD", ""),
                                       harness_env("BENCH_INSTRUMENT", "0") == "1");
}

BenchRecord::BenchRecord(std::string host, int port, std::string password, bool instrument)
    : host_(std::move(host)),
      port_(port),
      password_(std::move(password)),
      instrument_(instrument) {}

BenchRecord::~BenchRecord() {
  if (ctx_ != nullptr) redisFree(ctx_);
}

std::string BenchRecord::connect_locked() {
  if (ctx_ != nullptr) return {};
  timeval tv{2, 0};
  redisContext* c = redisConnectWithTimeout(host_.c_str(), port_, tv);
  if (c == nullptr) return "bench record: out of memory";
  if (c->err) {
    std::string why = std::string("bench record: cannot connect: ") + c->errstr;
    redisFree(c);
    return why;
  }
  if (!password_.empty()) {
    auto* r = static_cast<redisReply*>(redisCommand(c, "AUTH %s", password_.c_str()));
    const bool ok = r != nullptr && r->type != REDIS_REPLY_ERROR;
    if (r != nullptr) freeReplyObject(r);
    if (!ok) {
      redisFree(c);
      return "bench record: AUTH refused";
    }
  }
  // Replies may be blocking pops (the W4 producer waits up to 30 s).
  timeval reply_timeout{60, 0};
  redisSetTimeout(c, reply_timeout);
  ctx_ = c;
  return {};
}

std::string BenchRecord::command(const std::vector<std::string>& args, bool* nil) {
  std::vector<const char*> argv;
  std::vector<std::size_t> lengths;
  for (const auto& a : args) {
    argv.push_back(a.data());
    lengths.push_back(a.size());
  }
  std::lock_guard lock(mu_);
  std::string why;
  for (int attempt = 0; attempt < 2; ++attempt) {
    why = connect_locked();
    if (!why.empty()) continue;
    auto* r = static_cast<redisReply*>(
        redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data()));
    if (r == nullptr) {  // the connection is gone: reconnect once
      why = std::string("bench record: ") + (ctx_->err ? ctx_->errstr : "no reply");
      redisFree(ctx_);
      ctx_ = nullptr;
      continue;
    }
    const bool ok = r->type != REDIS_REPLY_ERROR;
    if (nil != nullptr) *nil = r->type == REDIS_REPLY_NIL;
    why = ok ? "" : "bench record: " + args.front() + ": " + std::string(r->str, r->len);
    freeReplyObject(r);
    return why;
  }
  return why;
}

std::string BenchRecord::announce_ready() {
  return command({"SADD", "bench:ready", std::to_string(::getpid())});
}

}  // namespace reactor_bench
