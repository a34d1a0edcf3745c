#include <gtest/gtest.h>

#include <stdexcept>

#include "reactor/error.hpp"

namespace reactor {
namespace {

TEST(ErrorTest, KindNamesRoundTrip) {
  const std::pair<ErrorKind, const char*> kinds[] = {
      {ErrorKind::kStepFailed, "step_failed"},
      {ErrorKind::kTimeout, "timeout"},
      {ErrorKind::kInputInvalid, "input_invalid"},
      {ErrorKind::kArgumentResolution, "argument_resolution"},
      {ErrorKind::kOutputInvalid, "output_invalid"},
      {ErrorKind::kCompensationFailed, "compensation_failed"},
      {ErrorKind::kUnknownReactor, "unknown_reactor"},
      {ErrorKind::kDefinitionChanged, "definition_changed"},
      {ErrorKind::kCorruptRecord, "corrupt_record"},
      {ErrorKind::kInternal, "internal"},
  };
  for (const auto& [kind, name] : kinds) {
    EXPECT_STREQ(to_string(kind), name);
    EXPECT_EQ(error_kind_from_string(name), kind);
  }
  EXPECT_THROW(error_kind_from_string("oops"), std::invalid_argument);
}

TEST(ErrorTest, RollbackFailureJson) {
  const RollbackFailure f{"payment/charge", "undo", "raised", "refund API down"};
  const Value j = f;
  EXPECT_EQ(j, (Value{{"step", "payment/charge"},
                      {"kind", "undo"},
                      {"reason", "raised"},
                      {"message", "refund API down"}}));
  EXPECT_EQ(j.get<RollbackFailure>(), f);
}

RunError full_error() {
  RunError e;
  e.kind = ErrorKind::kOutputInvalid;
  e.step = "quote";
  e.reactor = "Pricing";
  e.exception_type = "std::out_of_range";
  e.message = "output rejected";
  e.details = {{"field", "eur"}};
  e.attempts = 2;
  e.retryable = false;
  e.validation_errors = {{"quote", "must be an object"}};
  e.rollback_failures = {{"reserve", "undo", "returned_failure", "no"}};
  e.inputs = {{"token", "[REDACTED]"}};
  return e;
}

TEST(ErrorTest, RunErrorJsonUsesMemberNames) {
  const Value j = full_error();
  EXPECT_EQ(j.at("kind"), "output_invalid");
  EXPECT_EQ(j.at("step"), "quote");
  EXPECT_EQ(j.at("reactor"), "Pricing");
  EXPECT_EQ(j.at("exception_type"), "std::out_of_range");
  EXPECT_EQ(j.at("message"), "output rejected");
  EXPECT_EQ(j.at("details"), (Value{{"field", "eur"}}));
  EXPECT_EQ(j.at("attempts"), 2);
  EXPECT_EQ(j.at("retryable"), false);
  EXPECT_EQ(j.at("validation_errors").at(0).at("message"), "must be an object");
  EXPECT_EQ(j.at("rollback_failures").at(0).at("reason"), "returned_failure");
  EXPECT_EQ(j.at("inputs").at("token"), "[REDACTED]");
  EXPECT_EQ(j.size(), 11u);
}

TEST(ErrorTest, RunErrorJsonRoundTrip) {
  const RunError e = full_error();
  EXPECT_EQ(Value(e).get<RunError>(), e);
  EXPECT_EQ(Value(RunError{}).get<RunError>(), RunError{});
}

TEST(ErrorTest, RunErrorNeedsAKnownKind) {
  Value j = full_error();
  j["kind"] = "mystery";
  EXPECT_THROW(j.get<RunError>(), std::invalid_argument);
  j.erase("kind");
  EXPECT_THROW(j.get<RunError>(), Value::exception);
}

}  // namespace
}  // namespace reactor
