// Placeholder until the sqlite HoldStore lands (issue 25): every call says so.
#include "storage/sqlite/backend.hpp"

namespace reactor {

namespace {
Status not_yet() { return Status::Internal("coordination is not yet implemented on sqlite"); }
}  // namespace

Result<TakeResult> SqliteBackend::take_holds(const TakeRequest&) { return not_yet(); }
Result<CoordinationView> SqliteBackend::coordination() { return not_yet(); }
Result<OrderedChainRow> SqliteBackend::ordered_peek(const std::string&) { return not_yet(); }
Result<OrderedChainRow> SqliteBackend::ordered_skip(const std::string&) { return not_yet(); }
Result<OrderedChainRow> SqliteBackend::ordered_reset(const std::string&) { return not_yet(); }

}  // namespace reactor
