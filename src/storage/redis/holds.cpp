// Placeholder until the redis HoldStore lands (issue 25): every call says so.
#include "storage/redis/backend.hpp"

namespace reactor {

namespace {
Status not_yet() { return Status::Internal("coordination is not yet implemented on redis"); }
}  // namespace

Result<TakeResult> RedisBackend::take_holds(const TakeRequest&) { return not_yet(); }
Result<CoordinationView> RedisBackend::coordination() { return not_yet(); }
Result<OrderedChainRow> RedisBackend::ordered_peek(const std::string&) { return not_yet(); }
Result<OrderedChainRow> RedisBackend::ordered_skip(const std::string&) { return not_yet(); }
Result<OrderedChainRow> RedisBackend::ordered_reset(const std::string&) { return not_yet(); }

}  // namespace reactor
