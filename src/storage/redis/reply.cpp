#include "storage/redis/reply.hpp"

#include <algorithm>
#include <charconv>

namespace reactor::redis {

const redisReply& element(const redisReply& r, std::size_t i) {
  if (r.type != REDIS_REPLY_ARRAY || i >= r.elements) {
    throw BadReply("expected an array of more than " + std::to_string(i) + " elements");
  }
  return *r.element[i];
}

std::string text(const redisReply& r) {
  switch (r.type) {
    case REDIS_REPLY_STRING:
    case REDIS_REPLY_STATUS:
      return std::string(r.str, r.len);
    case REDIS_REPLY_INTEGER:
      return std::to_string(r.integer);
    case REDIS_REPLY_NIL:
      return {};
    default:
      throw BadReply("expected a string");
  }
}

std::int64_t integer(const redisReply& r) {
  if (r.type == REDIS_REPLY_INTEGER) return r.integer;
  if (r.type == REDIS_REPLY_STRING) {
    std::int64_t value = 0;
    auto [end, ec] = std::from_chars(r.str, r.str + r.len, value);
    if (ec == std::errc() && end == r.str + r.len) return value;
  }
  throw BadReply("expected an integer");
}

std::string count_arg(std::size_t n) {
  return std::to_string(std::min<std::size_t>(n, 1'000'000'000));
}

}  // namespace reactor::redis
