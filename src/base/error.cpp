#include "reactor/error.hpp"

#include <array>
#include <climits>
#include <cstdint>
#include <stdexcept>
#include <utility>

namespace reactor {

namespace {

// Stored in run records and branched on by callers: never rename an entry.
constexpr std::array<std::pair<ErrorKind, const char*>, 23> kErrorKindNames{{
    {ErrorKind::kStepFailed, "step_failed"},
    {ErrorKind::kTimeout, "timeout"},
    {ErrorKind::kInputInvalid, "input_invalid"},
    {ErrorKind::kArgumentResolution, "argument_resolution"},
    {ErrorKind::kOutputInvalid, "output_invalid"},
    {ErrorKind::kCompensationFailed, "compensation_failed"},
    {ErrorKind::kUnknownReactor, "unknown_reactor"},
    {ErrorKind::kDefinitionChanged, "definition_changed"},
    {ErrorKind::kRunIdConflict, "run_id_conflict"},
    {ErrorKind::kInterrupted, "interrupted"},
    {ErrorKind::kCorruptRecord, "corrupt_record"},
    {ErrorKind::kContention, "contention"},
    {ErrorKind::kValueTooLarge, "value_too_large"},
    {ErrorKind::kAsyncWaitTimeout, "async_wait_timeout"},
    {ErrorKind::kAsyncParkTimeout, "async_park_timeout"},
    {ErrorKind::kAsyncUnitFailed, "async_unit_failed"},
    {ErrorKind::kPoisonDelivery, "poison_delivery"},
    {ErrorKind::kOwnerEnded, "owner_ended"},
    {ErrorKind::kCancelled, "cancelled"},
    {ErrorKind::kUndone, "undone"},
    {ErrorKind::kContended, "contended"},
    {ErrorKind::kCoordinationKey, "coordination_key"},
    {ErrorKind::kInternal, "internal"},
}};

// Reads `key` when present; an absent key keeps the member's default, so records written before
// a field existed still load. A present key of the wrong type throws.
template <typename T>
void read_optional(const Value& j, const char* key, T& out) {
  auto it = j.find(key);
  if (it != j.end()) out = it->template get<T>();
}

// An int member: an integer in range, never a number converted (a double past int's range is
// undefined behaviour to cast). Throws std::invalid_argument otherwise.
void read_optional_int(const Value& j, const char* key, int& out) {
  auto it = j.find(key);
  if (it == j.end()) return;
  if (it->is_number_unsigned()) {
    if (it->get<std::uint64_t>() <= static_cast<std::uint64_t>(INT_MAX)) {
      out = static_cast<int>(it->get<std::uint64_t>());
      return;
    }
  } else if (it->is_number_integer()) {
    const auto n = it->get<std::int64_t>();
    if (n >= INT_MIN && n <= INT_MAX) {
      out = static_cast<int>(n);
      return;
    }
  }
  throw std::invalid_argument(std::string("'") + key + "' is not an integer in range");
}

}  // namespace

const char* to_string(ErrorKind kind) {
  for (const auto& [k, name] : kErrorKindNames) {
    if (k == kind) return name;
  }
  return "unknown";
}

ErrorKind error_kind_from_string(const std::string& s) {
  for (const auto& [k, name] : kErrorKindNames) {
    if (s == name) return k;
  }
  throw std::invalid_argument("unknown error kind '" + s + "'");
}

void to_json(Value& j, const FieldError& e) {
  j = Value{{"field", e.field}, {"message", e.message}};
}

void from_json(const Value& j, FieldError& e) {
  j.at("field").get_to(e.field);
  j.at("message").get_to(e.message);
}

void to_json(Value& j, const RollbackFailure& f) {
  j = Value{{"step", f.step}, {"kind", f.kind}, {"reason", f.reason}, {"message", f.message}};
}

void from_json(const Value& j, RollbackFailure& f) {
  j.at("step").get_to(f.step);
  j.at("kind").get_to(f.kind);
  read_optional(j, "reason", f.reason);
  read_optional(j, "message", f.message);
}

void to_json(Value& j, const RunError& e) {
  j = Value{{"kind", to_string(e.kind)},
            {"step", e.step},
            {"reactor", e.reactor},
            {"exception_type", e.exception_type},
            {"message", e.message},
            {"details", e.details},
            {"attempts", e.attempts},
            {"retryable", e.retryable},
            {"validation_errors", e.validation_errors},
            {"rollback_failures", e.rollback_failures},
            {"inputs", e.inputs}};
}

void from_json(const Value& j, RunError& e) {
  e.kind = error_kind_from_string(j.at("kind").get<std::string>());
  read_optional(j, "step", e.step);
  read_optional(j, "reactor", e.reactor);
  read_optional(j, "exception_type", e.exception_type);
  read_optional(j, "message", e.message);
  read_optional(j, "details", e.details);
  read_optional_int(j, "attempts", e.attempts);
  read_optional(j, "retryable", e.retryable);
  read_optional(j, "validation_errors", e.validation_errors);
  read_optional(j, "rollback_failures", e.rollback_failures);
  read_optional(j, "inputs", e.inputs);
}

}  // namespace reactor
