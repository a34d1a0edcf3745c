#include "storage/redis/client.hpp"

#include <algorithm>
#include <random>
#include <string_view>
#include <thread>

namespace reactor::redis {

namespace {

using Millis = std::chrono::milliseconds;

bool error_is(const redisReply& r, std::string_view code) {
  if (r.type != REDIS_REPLY_ERROR || r.str == nullptr) return false;
  std::string_view text(r.str, r.len);
  return text.substr(0, code.size()) == code &&
         (text.size() == code.size() || text[code.size()] == ' ');
}

// Refusals that say "not now": the server is loading its data set, running a
// long script, or between roles. Sending the request again later is right.
bool transient(const redisReply& r) {
  for (std::string_view code : {"LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN"}) {
    if (error_is(r, code)) return true;
  }
  return false;
}

// Before the next attempt: 10 ms doubling to 500 ms, each drawn between half
// and all of that, so clients that lost the server together do not come back
// in lock step.
Millis backoff(int attempt) {
  thread_local std::minstd_rand rng{std::random_device{}()};
  const long cap = std::min<long>(10L << std::min(attempt, 6), 500);
  std::uniform_int_distribution<long> jitter(cap / 2, cap);
  return Millis(jitter(rng));
}

}  // namespace

RedisClient::RedisClient(RedisOptions options) : pool_(std::move(options)) {}

Status RedisClient::start() {
  {
    // Connected once, without retrying: a server that is not there is a configuration mistake,
    // reported at once. The connection goes back to the pool for the loads below.
    ConnectionPool::Handle conn;
    if (Status s = pool_.acquire(conn); !s.ok()) return s;
  }
  std::vector<Command> loads;
  for (ScriptId id : all_scripts()) loads.push_back({"SCRIPT", "LOAD", script_source(id)});
  std::vector<Reply> replies;
  // A server that is there but not ready (LOADING its data after a restart, BUSY) is waited for,
  // up to the reconnect budget, as every later request is: a worker started beside a restarting
  // Redis must not exit.
  if (Status s = round_trip(loads, replies, Millis(0)); !s.ok()) return s;
  for (std::size_t i = 0; i < replies.size(); ++i) {
    const ScriptId id = all_scripts()[i];
    const redisReply& r = *replies[i];
    if (r.type != REDIS_REPLY_STRING) {
      return to_status(r, std::string("loading script ") + script_name(id));
    }
    sha_[id] = std::string(r.str, r.len);
  }
  return Status::Ok();
}

Status RedisClient::round_trip(const std::vector<Command>& commands, std::vector<Reply>& replies,
                               Millis block) {
  const auto start = std::chrono::steady_clock::now();
  const auto deadline = start + options().reconnect_budget;
  Status last;
  for (int attempt = 0;; ++attempt) {
    if (attempt > 0) {
      const auto now = std::chrono::steady_clock::now();
      if (now >= deadline) break;
      std::this_thread::sleep_for(
          std::min<std::chrono::steady_clock::duration>(backoff(attempt - 1), deadline - now));
    }
    ConnectionPool::Handle conn;
    last = pool_.acquire(conn);
    if (!last.ok()) continue;
    last = conn->call(commands, replies, block);
    if (!last.ok()) {
      // The server went away or the network broke: the idle connections are
      // most likely dead too, so none of them is tried before a fresh one.
      pool_.drop_idle();
      continue;
    }
    auto refused =
        std::find_if(replies.begin(), replies.end(), [](const Reply& r) { return transient(*r); });
    if (refused == replies.end()) return Status::Ok();
    last = to_status(**refused, commands.front().front());
  }
  const auto spent =
      std::chrono::duration_cast<Millis>(std::chrono::steady_clock::now() - start).count();
  return Status::Unavailable(last.message() + " (gave up after " + std::to_string(spent) +
                             " ms of reconnecting)");
}

Status RedisClient::command(const Command& cmd, Reply& out, Millis block) {
  std::vector<Reply> replies;
  if (Status s = round_trip({cmd}, replies, block); !s.ok()) return s;
  out = std::move(replies.front());
  if (out->type == REDIS_REPLY_ERROR) return to_status(*out, cmd.front());
  return Status::Ok();
}

Status RedisClient::transaction(const std::vector<Command>& commands, Reply& out) {
  std::vector<Command> all;
  all.reserve(commands.size() + 2);
  all.push_back({"MULTI"});
  all.insert(all.end(), commands.begin(), commands.end());
  all.push_back({"EXEC"});
  std::vector<Reply> replies;
  if (Status s = round_trip(all, replies, Millis(0)); !s.ok()) return s;
  for (std::size_t k = 0; k < replies.size(); ++k) {
    if (replies[k]->type == REDIS_REPLY_ERROR) return to_status(*replies[k], all[k].front());
  }
  out = std::move(replies.back());
  if (out->type != REDIS_REPLY_ARRAY || out->elements != commands.size()) {
    return Status::Internal(options().masked_url + ": EXEC: the transaction did not run");
  }
  for (std::size_t k = 0; k < commands.size(); ++k) {
    if (out->element[k]->type == REDIS_REPLY_ERROR) {
      return to_status(*out->element[k], commands[k].front());
    }
  }
  return Status::Ok();
}

Status RedisClient::evalsha(ScriptId script, const std::vector<std::string>& keys, std::size_t args,
                            Command& out) const {
  auto sha = sha_.find(script);
  if (sha == sha_.end()) {
    return Status::Internal(options().masked_url + ": script " + script_name(script) +
                            " was never loaded");
  }
  if (keys.size() != script_num_keys(script)) {
    return Status::Internal(options().masked_url + ": script " + script_name(script) + " takes " +
                            std::to_string(script_num_keys(script)) + " keys, not " +
                            std::to_string(keys.size()));
  }
  out.clear();
  out.reserve(args + keys.size() + 3);
  out.insert(out.end(), {"EVALSHA", sha->second, std::to_string(keys.size())});
  out.insert(out.end(), keys.begin(), keys.end());
  return Status::Ok();
}

Status RedisClient::eval(ScriptId script, std::vector<std::string> keys,
                         std::vector<std::string> args, Reply& out) {
  // The request is built in place: a braced list of commands would copy
  // every argument (a commit's JSON bodies) once more.
  std::vector<Command> request(1);
  Command& evalsha = request.front();
  if (Status s = this->evalsha(script, keys, args.size(), evalsha); !s.ok()) return s;
  evalsha.insert(evalsha.end(), std::make_move_iterator(args.begin()),
                 std::make_move_iterator(args.end()));
  std::vector<Reply> replies;
  if (Status s = round_trip(request, replies, Millis(0)); !s.ok()) return s;
  if (error_is(*replies.front(), "NOSCRIPT")) {
    // Nothing ran; load it again and run it in the same round trip.
    request.insert(request.begin(), Command{"SCRIPT", "LOAD", script_source(script)});
    if (Status s = round_trip(request, replies, Millis(0)); !s.ok()) return s;
    replies.erase(replies.begin());
  }
  return script_reply(script, std::move(replies.front()), out);
}

Status RedisClient::script_reply(ScriptId script, Reply reply, Reply& out) const {
  out = std::move(reply);
  if (out->type == REDIS_REPLY_ERROR) {
    return to_status(*out, std::string("script ") + script_name(script));
  }
  return Status::Ok();
}

Status RedisClient::command_then_eval(const Command& first, ScriptId script,
                                      std::vector<std::string> keys, std::vector<std::string> args,
                                      Reply& out, Millis block) {
  std::vector<Command> request = {first, Command{}};
  Command& evalsha = request.back();
  if (Status s = this->evalsha(script, keys, args.size(), evalsha); !s.ok()) return s;
  // The arguments stay here: a NOSCRIPT answer sends them again through eval().
  evalsha.insert(evalsha.end(), args.begin(), args.end());
  std::vector<Reply> replies;
  if (Status s = round_trip(request, replies, block); !s.ok()) return s;
  if (replies[0]->type == REDIS_REPLY_ERROR) return to_status(*replies[0], first.front());
  if (error_is(*replies[1], "NOSCRIPT")) return eval(script, std::move(keys), std::move(args), out);
  return script_reply(script, std::move(replies[1]), out);
}

Status RedisClient::to_status(const redisReply& reply, const std::string& what) const {
  const std::string text = reply.str ? std::string(reply.str, reply.len) : "unexpected reply";
  const std::string message = options().masked_url + ": " + what + ": " + text;
  // The server cannot take writes now (memory, a failing disk, a replica) or
  // does not let us in: the store is unavailable, not the request wrong.
  for (std::string_view code : {"OOM", "MISCONF", "READONLY", "NOAUTH", "WRONGPASS", "NOPERM",
                                "LOADING", "BUSY", "TRYAGAIN", "MASTERDOWN", "NOREPLICAS"}) {
    if (error_is(reply, code)) return Status::Unavailable(message);
  }
  return Status::Internal(message);
}

}  // namespace reactor::redis
