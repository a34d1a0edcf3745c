#include <gtest/gtest.h>

#include <string>

#include "reactor/args.hpp"

namespace reactor {
namespace {

TEST(ArgsTest, EmptyArgsHaveNothing) {
  Args args;
  EXPECT_EQ(args.size(), 0u);
  EXPECT_FALSE(args.has("x"));
  EXPECT_EQ(args.to_json(), Value::object());
}

TEST(ArgsTest, ViewRefersToTheOriginalValue) {
  Value stored = {{"id", 7}};
  Args args;
  args.add_view("reservation", &stored);
  EXPECT_TRUE(args.has("reservation"));
  EXPECT_EQ(&args["reservation"], &stored);
  EXPECT_EQ(args["reservation"]["id"], 7);
}

TEST(ArgsTest, OwnedValueIsKeptByArgs) {
  Args args;
  args.add_owned("cents", Value(1999));
  EXPECT_EQ(args["cents"], 1999);
  EXPECT_EQ(args.get<int>("cents"), 1999);
}

TEST(ArgsTest, GetConvertsThroughJson) {
  Value name = "Ada";
  Args args;
  args.add_view("name", &name);
  args.add_owned("ratio", Value(0.5));
  EXPECT_EQ(args.get<std::string>("name"), "Ada");
  EXPECT_DOUBLE_EQ(args.get<double>("ratio"), 0.5);
}

TEST(ArgsTest, UndeclaredArgumentThrowsWithItsName) {
  Args args;
  args.add_owned("a", Value(1));
  try {
    (void)args["missing"];
    FAIL() << "expected UndeclaredArgument";
  } catch (const UndeclaredArgument& e) {
    EXPECT_STREQ(e.what(), "undeclared argument 'missing'");
  }
  EXPECT_THROW(args.get<int>("other"), UndeclaredArgument);
}

TEST(ArgsTest, ToJsonCopiesEveryArgument) {
  Value order = 42;
  Args args;
  args.add_view("order_id", &order);
  args.add_owned("mode", Value("strict"));
  EXPECT_EQ(args.size(), 2u);
  EXPECT_EQ(args.to_json(), (Value{{"order_id", 42}, {"mode", "strict"}}));
}

TEST(ArgsTest, ReAddingANameReplacesItsValue) {
  Value first = 1;
  Value second = 2;
  Args args;
  args.add_view("x", &first);
  args.add_owned("x", Value(3));
  EXPECT_EQ(args.size(), 1u);
  EXPECT_EQ(args["x"], 3);
  args.add_view("x", &second);
  EXPECT_EQ(args.size(), 1u);
  EXPECT_EQ(&args["x"], &second);
}

TEST(ArgsTest, NullViewReadsAsNull) {
  Args args;
  args.add_view("nothing", nullptr);
  EXPECT_TRUE(args.has("nothing"));
  EXPECT_TRUE(args["nothing"].is_null());
}

TEST(ArgsTest, MovedArgsKeepOwnedValues) {
  Args args;
  args.add_owned("big", Value(std::string(1000, 'x')));
  const Value* before = &args["big"];
  Args moved = std::move(args);
  EXPECT_EQ(&moved["big"], before);  // owned values live on the heap, not in the vector
  EXPECT_EQ(moved["big"].get<std::string>().size(), 1000u);
}

}  // namespace
}  // namespace reactor

// A fan-in step has many arguments: lookups go through a sorted index, which
// must stay right as arguments are added after a lookup.
TEST(ArgsIndex, ManyArgumentsAreFoundByNameBeforeAndAfterLaterAdds) {
  std::vector<reactor::Value> values;
  for (int i = 0; i < 20; ++i) values.push_back(i * 10);
  reactor::Args args;
  for (int i = 19; i >= 0; --i) args.append_view("w" + std::to_string(i), &values[i]);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(args.get<int>("w" + std::to_string(i)), i * 10);
  EXPECT_THROW(args["w20"], reactor::UndeclaredArgument);
  args.add_owned("w20", 200);
  args.add_owned("w3", 33);  // replaces
  EXPECT_EQ(args.get<int>("w20"), 200);
  EXPECT_EQ(args.get<int>("w3"), 33);
  EXPECT_EQ(args.size(), 21u);
}
