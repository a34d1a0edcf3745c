// Reading hiredis replies of the shapes the scripts return; a reply of
// another shape throws BadReply, which the backend reports as Internal naming
// the script.
#pragma once

#include <hiredis/hiredis.h>

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace reactor::redis {

// A reply of a shape the script never returns.
struct BadReply : std::runtime_error {
  using std::runtime_error::runtime_error;
};

const redisReply& element(const redisReply& r, std::size_t i);

std::string text(const redisReply& r);

std::int64_t integer(const redisReply& r);

// Visits the field/value pairs of an HGETALL reply.
template <typename Visit>
void for_each_field(const redisReply& r, Visit&& visit) {
  if (r.type != REDIS_REPLY_ARRAY || r.elements % 2 != 0) throw BadReply("expected a hash");
  for (std::size_t i = 0; i < r.elements; i += 2)
    visit(text(*r.element[i]), text(*r.element[i + 1]));  // by value: visitors may keep them
}

// Script arguments for counts: Redis reads LIMIT counts as signed 64-bit.
std::string count_arg(std::size_t n);

}  // namespace reactor::redis
