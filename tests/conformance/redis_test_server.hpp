// The Redis server the tests talk to, and a raw connection to it for what a
// test checks behind the backend's back: the server's clock, the keys
// written, the clients connected.
//
// The server is the one the ctest fixture redis_server_start started
// (tests/support/redis_server.sh writes its URL to REACTOR_TEST_REDIS_URL_FILE),
// or the one the environment variable REACTOR_TEST_REDIS_URL names.
#pragma once

#include <hiredis/hiredis.h>
#include <unistd.h>

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <string>
#include <vector>

namespace reactor::conformance {

#ifndef REACTOR_TEST_REDIS_URL_FILE
#define REACTOR_TEST_REDIS_URL_FILE "test-redis/url"
#endif

inline std::string test_redis_url() {
  if (const char* env = std::getenv("REACTOR_TEST_REDIS_URL"); env != nullptr && *env != '\0') {
    return env;
  }
  std::ifstream in(REACTOR_TEST_REDIS_URL_FILE);
  std::string url;
  if (in && std::getline(in, url)) return url;
  return "";
}

inline std::string no_test_redis_message() {
  return "no Redis server for the tests: run them with ctest (the fixture redis_server_start "
         "starts one and writes its URL to " REACTOR_TEST_REDIS_URL_FILE
         "), or set REACTOR_TEST_REDIS_URL=redis://[:password@]host:port/db";
}

// `url` with one more query option.
inline std::string with_url_option(const std::string& url, const std::string& name,
                                   const std::string& value) {
  return url + (url.find('?') == std::string::npos ? "?" : "&") + name + "=" + value;
}

struct RawReplyDeleter {
  void operator()(redisReply* r) const noexcept { freeReplyObject(r); }
};
using RawReply = std::unique_ptr<redisReply, RawReplyDeleter>;

inline std::string reply_text(const RawReply& r) {
  return r && r->str ? std::string(r->str, r->len) : std::string();
}

// One hiredis connection, for tests only (no retries, no pool).
class RawRedis {
 public:
  explicit RawRedis(const std::string& url) {
    // redis://[[user]:password@]host:port[/db][?options]
    std::string rest = url.substr(url.find("://") == std::string::npos ? 0 : url.find("://") + 3);
    rest = rest.substr(0, rest.find('?'));
    std::string db = "0";
    if (auto slash = rest.find('/'); slash != std::string::npos) {
      db = rest.substr(slash + 1);
      rest = rest.substr(0, slash);
    }
    std::string user, password;
    if (auto at = rest.rfind('@'); at != std::string::npos) {
      const std::string info = rest.substr(0, at);
      rest = rest.substr(at + 1);
      const auto colon = info.find(':');
      user = colon == std::string::npos ? "" : info.substr(0, colon);
      password = colon == std::string::npos ? info : info.substr(colon + 1);
    }
    const auto colon = rest.rfind(':');
    const std::string host = rest.substr(0, colon);
    const int port = colon == std::string::npos ? 6379 : std::atoi(rest.c_str() + colon + 1);
    timeval tv{5, 0};
    ctx_ = redisConnectWithTimeout(host.c_str(), port, tv);
    if (ctx_ == nullptr || ctx_->err) {
      error_ = "cannot connect to the test Redis at " + host + ":" + std::to_string(port) + ": " +
               (ctx_ ? ctx_->errstr : "out of memory");
      return;
    }
    redisSetTimeout(ctx_, tv);
    if (!password.empty()) {
      RawReply r = user.empty() ? command({"AUTH", password}) : command({"AUTH", user, password});
      if (!r || r->type == REDIS_REPLY_ERROR) error_ = "test Redis AUTH: " + reply_text(r);
    }
    if (error_.empty() && db != "0") command({"SELECT", db});
  }
  ~RawRedis() {
    if (ctx_) redisFree(ctx_);
  }
  RawRedis(const RawRedis&) = delete;
  RawRedis& operator=(const RawRedis&) = delete;

  // Empty when connected.
  const std::string& error() const { return error_; }

  RawReply command(const std::vector<std::string>& args) {
    if (ctx_ == nullptr || ctx_->err) return nullptr;
    std::vector<const char*> argv;
    std::vector<std::size_t> lengths;
    for (const auto& a : args) {
      argv.push_back(a.data());
      lengths.push_back(a.size());
    }
    return RawReply(static_cast<redisReply*>(
        redisCommandArgv(ctx_, static_cast<int>(argv.size()), argv.data(), lengths.data())));
  }

  // Unix milliseconds by the server's clock (0 if it cannot be read).
  std::int64_t time_ms() {
    RawReply r = command({"TIME"});
    if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) return 0;
    return std::atoll(r->element[0]->str) * 1000 + std::atoll(r->element[1]->str) / 1000;
  }

  // Every key that starts with `prefix`, by SCAN.
  std::vector<std::string> keys(const std::string& prefix) {
    std::string pattern;
    for (char c : prefix) {
      if (c == '*' || c == '?' || c == '[' || c == ']' || c == '\\') pattern += '\\';
      pattern += c;
    }
    pattern += '*';
    std::vector<std::string> out;
    std::string cursor = "0";
    do {
      RawReply r = command({"SCAN", cursor, "MATCH", pattern, "COUNT", "1000"});
      if (!r || r->type != REDIS_REPLY_ARRAY || r->elements != 2) break;
      cursor.assign(r->element[0]->str, r->element[0]->len);
      const redisReply* page = r->element[1];
      for (std::size_t i = 0; i < page->elements; ++i) {
        out.emplace_back(page->element[i]->str, page->element[i]->len);
      }
    } while (cursor != "0");
    return out;
  }

  void delete_keys(const std::string& prefix) {
    for (const auto& key : keys(prefix)) command({"UNLINK", key});
  }

  // Closes, from the server's side, every connection this process's backends
  // hold (they name themselves reactor-<pid>), as a network failure would;
  // other clients of the server are left alone. Returns how many were closed.
  int kill_backend_connections() {
    const std::string name = "name=reactor-" + std::to_string(::getpid()) + " ";
    const std::string list = reply_text(command({"CLIENT", "LIST"}));
    int killed = 0;
    std::size_t start = 0;
    while (start < list.size()) {
      std::size_t end = list.find('\n', start);
      if (end == std::string::npos) end = list.size();
      const std::string line = list.substr(start, end - start);
      start = end + 1;
      if (line.find(name) == std::string::npos || line.rfind("id=", 0) != 0) continue;
      const std::string id = line.substr(3, line.find(' ') - 3);
      RawReply r = command({"CLIENT", "KILL", "ID", id});
      if (r && r->type == REDIS_REPLY_INTEGER) killed += static_cast<int>(r->integer);
    }
    return killed;
  }

 private:
  redisContext* ctx_ = nullptr;
  std::string error_;
};

#ifdef REACTOR_TEST_REDIS_LAUNCHER
// A server of a test's own, started and stopped with the launcher the ctest
// fixture uses (tests/support/redis_server.sh), so it can be restarted, or run
// as a cluster, without disturbing other tests. Stopped (by its PID) when it
// goes out of scope.
class PrivateRedis {
 public:
  PrivateRedis() {
    char tmpl[] = "/tmp/reactor-redis-restart-XXXXXX";
    if (const char* d = ::mkdtemp(tmpl)) dir_ = d;
  }
  ~PrivateRedis() {
    run("stop");
    std::error_code ec;
    if (!dir_.empty()) std::filesystem::remove_all(dir_, ec);
  }
  // `action` (start, restart, kill9, stop), with the launcher's `options` (--cluster).
  bool run(const std::string& action, const std::string& options = "") {
    if (dir_.empty()) return false;
    const std::string cmd = std::string("bash '") + REACTOR_TEST_REDIS_LAUNCHER + "' " + action +
                            " '" + dir_ + "' " + options;
    return std::system(cmd.c_str()) == 0;
  }
  std::string url() const {
    std::ifstream in(dir_ + "/url");
    std::string url;
    std::getline(in, url);
    return url;
  }
  // Appends a line to the server's configuration, read when it (re)starts.
  bool configure(const std::string& line) {
    std::ifstream data_file(dir_ + "/data");
    std::string data;
    if (!std::getline(data_file, data)) return false;
    std::ofstream conf(data + "/redis.conf", std::ios::app);
    conf << line << "\n";
    return static_cast<bool>(conf);
  }

 private:
  std::string dir_;
};

#endif  // REACTOR_TEST_REDIS_LAUNCHER

}  // namespace reactor::conformance
