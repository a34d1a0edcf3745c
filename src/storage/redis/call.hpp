// RedisBackend::run and read_reply, shared by the backend's facets: a
// script call whose reply a reader turns into results.
#pragma once

#include <exception>
#include <utility>

#include "storage/redis/backend.hpp"

namespace reactor {

template <typename Read>
Status RedisBackend::run(redis::ScriptId script, const std::vector<std::string>& known,
                         std::vector<std::string> args, Read&& read) {
  redis::Reply reply;
  if (Status s = client_.eval(script, redis::script_keys(script, client_.options().prefix, known),
                              std::move(args), reply);
      !s.ok()) {
    return s;
  }
  return read_reply(script, *reply, std::forward<Read>(read));
}

template <typename Read>
Status RedisBackend::read_reply(redis::ScriptId script, const redisReply& reply, Read&& read) {
  try {
    return read(reply);
  } catch (const std::exception& e) {  // BadReply, or a job kind this build cannot read
    return Status::Internal(client_.options().masked_url + ": script " +
                            redis::script_name(script) + ": unexpected reply: " + e.what());
  }
}

}  // namespace reactor
