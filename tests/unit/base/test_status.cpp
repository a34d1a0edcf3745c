#include <gtest/gtest.h>

#include "reactor/status.hpp"

namespace reactor {
namespace {

TEST(StatusTest, DefaultIsOk) {
  Status s;
  EXPECT_TRUE(s.ok());
  EXPECT_EQ(s.code(), StatusCode::kOk);
  EXPECT_EQ(s.message(), "");
  EXPECT_EQ(s.to_string(), "ok");
  EXPECT_TRUE(Status::Ok().ok());
}

TEST(StatusTest, FactoriesSetCodeAndMessage) {
  EXPECT_EQ(Status::NotFound("m").code(), StatusCode::kNotFound);
  EXPECT_EQ(Status::InvalidArgument("m").code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(Status::Corruption("m").code(), StatusCode::kCorruption);
  EXPECT_EQ(Status::LeaseLost("m").code(), StatusCode::kLeaseLost);
  EXPECT_EQ(Status::Unavailable("m").code(), StatusCode::kUnavailable);
  EXPECT_EQ(Status::Internal("m").code(), StatusCode::kInternal);
  Status s = Status::NotFound("no run 42");
  EXPECT_FALSE(s.ok());
  EXPECT_EQ(s.message(), "no run 42");
}

TEST(StatusTest, CodeNamesAreSnakeCase) {
  EXPECT_STREQ(to_string(StatusCode::kOk), "ok");
  EXPECT_STREQ(to_string(StatusCode::kNotFound), "not_found");
  EXPECT_STREQ(to_string(StatusCode::kInvalidArgument), "invalid_argument");
  EXPECT_STREQ(to_string(StatusCode::kCorruption), "corruption");
  EXPECT_STREQ(to_string(StatusCode::kLeaseLost), "lease_lost");
  EXPECT_STREQ(to_string(StatusCode::kUnavailable), "unavailable");
  EXPECT_STREQ(to_string(StatusCode::kInternal), "internal");
}

TEST(StatusTest, ToStringJoinsCodeAndMessage) {
  EXPECT_EQ(Status::LeaseLost("run r1 taken by w2").to_string(), "lease_lost: run r1 taken by w2");
  EXPECT_EQ(Status(StatusCode::kInternal, "").to_string(), "internal");
}

}  // namespace
}  // namespace reactor
