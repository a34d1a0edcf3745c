// Assertions on a Result<T> (reactor/result.hpp), after Abseil's status matchers:
//
//   ASSERT_OK_AND_ASSIGN(RunResult found, engine.find(id));
//   ASSERT_OK_AND_ASSIGN(id, engine.run_in_background("Five", {{"n", 0}}));
//
// ASSERT_OK_AND_ASSIGN asserts the result is ok (printing its status if not), then moves its
// value into `lhs`, a declaration or an existing variable. EXPECT_OK_AND_ASSIGN records a
// failure instead of returning and leaves `lhs` (an existing variable) as it was. Each is several
// statements: write it where a statement goes, not as the lone body of an `if` or `for` without
// braces.
#pragma once

#include <gtest/gtest.h>

#include <utility>

#include "reactor/leases.hpp"
#include "reactor/result.hpp"

#define REACTOR_RESULT_CONCAT_(a, b) a##b
#define REACTOR_RESULT_NAME_(line) REACTOR_RESULT_CONCAT_(reactor_result_, line)

#define ASSERT_OK_AND_ASSIGN(lhs, rexpr) \
  REACTOR_ASSIGN_OR_(ASSERT_TRUE, REACTOR_RESULT_NAME_(__LINE__), lhs, rexpr)
#define EXPECT_OK_AND_ASSIGN(lhs, rexpr) \
  REACTOR_EXPECT_ASSIGN_(REACTOR_RESULT_NAME_(__LINE__), lhs, rexpr)

#define REACTOR_ASSIGN_OR_(check, result, lhs, rexpr) \
  auto result = (rexpr);                              \
  check(result.ok()) << result.status().to_string();  \
  lhs = std::move(result).value()

#define REACTOR_EXPECT_ASSIGN_(result, lhs, rexpr)         \
  auto result = (rexpr);                                   \
  EXPECT_TRUE(result.ok()) << result.status().to_string(); \
  if (result.ok()) lhs = std::move(result).value()

namespace reactor {

// For a poll in an expression: whether `result` is ok, and if it is, its value moved into
// `latest` (which keeps the last value seen otherwise), e.g.
// `if (assign_if_ok(r, engine.find(id)) && is_terminal(r.status)) break;`
template <class T>
bool assign_if_ok(T& latest, Result<T> result) {
  if (!result.ok()) return false;
  latest = std::move(result).value();
  return true;
}

}  // namespace reactor

namespace reactor {

// The same where a test goes on to check the status: `result`'s status, its value moved into
// `out` when it is ok (`out` is left as it was otherwise), e.g.
// `Status s = assign_or_status(b, open_backend(url, clock)); EXPECT_FALSE(b);`
template <class T, class U>
Status assign_or_status(U& out, Result<T> result) {
  if (!result.ok()) return std::move(result).status();
  out = std::move(result).value();
  return Status::Ok();
}

// Leases::acquire_lease's grant, taken apart: whether it was granted, and the lease (ours, or the
// holder's).
inline Status assign_or_status(bool& granted, Lease& lease, Result<LeaseGrant> result) {
  if (!result.ok()) return std::move(result).status();
  granted = result->granted;
  lease = std::move(result->lease);
  return Status::Ok();
}

}  // namespace reactor
