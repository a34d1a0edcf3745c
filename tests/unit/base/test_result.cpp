#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reactor/result.hpp"

namespace reactor {
namespace {

Result<int> half(int n) {
  if (n % 2 != 0) return Status::InvalidArgument("odd");
  return n / 2;
}

TEST(ResultTest, HoldsAValue) {
  Result<int> r = half(8);
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(r.status().ok());
  EXPECT_EQ(r.value(), 4);
  EXPECT_EQ(*r, 4);
  EXPECT_EQ(r.value_or(-1), 4);
  const Result<int>& c = r;
  EXPECT_EQ(c.value(), 4);
  EXPECT_EQ(*c, 4);
  r.value() = 5;
  EXPECT_EQ(*r, 5);
  *r = 6;
  EXPECT_EQ(r.value(), 6);
}

TEST(ResultTest, HoldsAnError) {
  Result<int> r = half(3);
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(r.status().message(), "odd");
  EXPECT_EQ(r.value_or(-1), -1);
  EXPECT_EQ(std::move(r).status().code(), StatusCode::kInvalidArgument);
}

TEST(ResultTest, AnOkStatusIsAnInternalError) {
  Result<int> r = Status::Ok();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInternal);
  EXPECT_NE(r.status().message().find("ok Status"), std::string::npos) << r.status().message();
}

TEST(ResultTest, ArrowReachesMembers) {
  Result<std::string> r = std::string("saga");
  EXPECT_EQ(r->size(), 4u);
  const Result<std::string>& c = r;
  EXPECT_EQ(c->front(), 's');
}

TEST(ResultTest, MovesAMoveOnlyValueIn) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(7);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(**r, 7);
  EXPECT_EQ(*r.value(), 7);
  std::unique_ptr<int> out = std::move(r).value();
  ASSERT_NE(out, nullptr);
  EXPECT_EQ(*out, 7);
}

TEST(ResultTest, MovesAMoveOnlyValueOut) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(9);
  std::unique_ptr<int> out = *std::move(r);
  EXPECT_EQ(*out, 9);
  Result<std::unique_ptr<int>> err = Status::NotFound("none");
  std::unique_ptr<int> fallback = std::move(err).value_or(std::make_unique<int>(1));
  EXPECT_EQ(*fallback, 1);
  Result<std::unique_ptr<int>> held = std::make_unique<int>(2);
  std::unique_ptr<int> kept = std::move(held).value_or(nullptr);
  EXPECT_EQ(*kept, 2);
}

struct Base {
  virtual ~Base() = default;
  virtual int n() const { return 0; }
};
struct Derived : Base {
  int n() const override { return 1; }
};

Result<std::unique_ptr<Base>> make_base() { return std::make_unique<Derived>(); }
Result<std::optional<int>> nothing() { return std::nullopt; }

TEST(ResultTest, ConvertsWhatTheValueIsMadeOf) {
  Result<std::unique_ptr<Base>> b = make_base();
  ASSERT_TRUE(b.ok());
  EXPECT_EQ((*b)->n(), 1);
  Result<std::optional<int>> o = nothing();
  ASSERT_TRUE(o.ok());
  EXPECT_FALSE(o->has_value());
}

TEST(ResultTest, ValueOfAnErrorAborts) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  Result<int> r = Status::NotFound("none");
  EXPECT_DEATH((void)r.value(), "");
  EXPECT_DEATH((void)*r, "");
}

TEST(ResultTest, MovingTheValueOutLeavesTheResultOk) {
  Result<std::vector<int>> r = std::vector<int>{1, 2, 3};
  std::vector<int> v = std::move(r).value();
  EXPECT_EQ(v.size(), 3u);
  EXPECT_TRUE(r.ok());  // NOLINT(bugprone-use-after-move): a moved-from value is still a value
}

}  // namespace
}  // namespace reactor
