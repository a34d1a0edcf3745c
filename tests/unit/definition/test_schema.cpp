#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "reactor/reactor.hpp"
#include "reactor/schema.hpp"

namespace reactor {
namespace {

using ::testing::ElementsAre;
using ::testing::IsEmpty;

// Every error of `v` as "field: message", the way an input error reads.
std::vector<std::string> errors_of(const Schema& schema, const std::string& field, const Value& v) {
  std::vector<FieldError> errors = schema.validate(field, v);
  std::vector<std::string> out;
  for (const FieldError& e : errors) out.push_back(e.field + ": " + e.message);
  return out;
}

Schema traveller() {
  return object().properties({
      {"email", string().min_length(3)},
      {"age", integer().min(0).optional()},
      {"seat", string().default_value("any")},
  });
}

std::vector<std::string> messages(const Schema& schema, const Value& v) {
  std::vector<FieldError> errors = schema.validate("f", v);
  std::vector<std::string> out;
  for (const FieldError& e : errors) {
    EXPECT_EQ(e.field, "f");
    out.push_back(e.message);
  }
  return out;
}

TEST(SchemaTest, TypeNames) {
  EXPECT_STREQ(to_string(ValueType::kAny), "any");
  EXPECT_STREQ(to_string(ValueType::kInteger), "integer");
  EXPECT_STREQ(to_string(ValueType::kNumber), "number");
  EXPECT_STREQ(to_string(ValueType::kString), "string");
  EXPECT_STREQ(to_string(ValueType::kBoolean), "boolean");
  EXPECT_STREQ(to_string(ValueType::kArray), "array");
  EXPECT_STREQ(to_string(ValueType::kObject), "object");
}

TEST(SchemaTest, IntegerAcceptsSignedAndUnsignedOnly) {
  EXPECT_THAT(messages(integer(), Value(-3)), IsEmpty());
  EXPECT_THAT(messages(integer(), Value(3u)), IsEmpty());
  EXPECT_THAT(messages(integer(), Value::parse("18446744073709551615")), IsEmpty());
  EXPECT_THAT(messages(integer(), Value(1.0)), ElementsAre("must be an integer"));
  EXPECT_THAT(messages(integer(), Value("1")), ElementsAre("must be an integer"));
  EXPECT_THAT(messages(integer(), Value(nullptr)), ElementsAre("must be an integer"));
  EXPECT_THAT(messages(integer(), Value(true)), ElementsAre("must be an integer"));
}

TEST(SchemaTest, EachTypeRejectsOtherKinds) {
  EXPECT_THAT(messages(number(), Value(1)), IsEmpty());
  EXPECT_THAT(messages(number(), Value(1.5)), IsEmpty());
  EXPECT_THAT(messages(number(), Value("1.5")), ElementsAre("must be a number"));
  EXPECT_THAT(messages(string(), Value("x")), IsEmpty());
  EXPECT_THAT(messages(string(), Value(1)), ElementsAre("must be a string"));
  EXPECT_THAT(messages(boolean(), Value(false)), IsEmpty());
  EXPECT_THAT(messages(boolean(), Value(0)), ElementsAre("must be a boolean"));
  EXPECT_THAT(messages(array(), Value::array()), IsEmpty());
  EXPECT_THAT(messages(array(), Value::object()), ElementsAre("must be an array"));
  EXPECT_THAT(messages(object(), Value::object()), IsEmpty());
  EXPECT_THAT(messages(object(), Value::array()), ElementsAre("must be an object"));
}

TEST(SchemaTest, AnyAcceptsEverything) {
  for (const Value& v : {Value(nullptr), Value(1), Value("s"), Value::array(), Value::object()}) {
    EXPECT_THAT(messages(any(), v), IsEmpty()) << v.dump();
  }
}

TEST(SchemaTest, NumericBounds) {
  const Schema amount = integer().min(1).max(100);
  EXPECT_THAT(messages(amount, Value(1)), IsEmpty());
  EXPECT_THAT(messages(amount, Value(100)), IsEmpty());
  EXPECT_THAT(messages(amount, Value(0)), ElementsAre("must be at least 1"));
  EXPECT_THAT(messages(amount, Value(101)), ElementsAre("must be at most 100"));
  EXPECT_THAT(messages(number().min(0.5), Value(0.25)), ElementsAre("must be at least 0.5"));
  EXPECT_THAT(messages(number().max(-2), Value(-1)), ElementsAre("must be at most -2"));
}

TEST(SchemaTest, TypeErrorStopsValidation) {
  const Schema s = integer().min(5).one_of({1, 2}).check(
      [](const Value&) { return std::optional<std::string>("custom"); });
  EXPECT_THAT(messages(s, Value("abc")), ElementsAre("must be an integer"));
}

TEST(SchemaTest, StringAndArrayLengths) {
  EXPECT_THAT(messages(string().min_length(2), Value("a")),
              ElementsAre("length must be at least 2"));
  EXPECT_THAT(messages(string().max_length(3), Value("abcd")),
              ElementsAre("length must be at most 3"));
  EXPECT_THAT(messages(string().length(1, 3), Value("abc")), IsEmpty());
  EXPECT_THAT(messages(array().length(2, 3), Value::array({1})),
              ElementsAre("length must be at least 2"));
  EXPECT_THAT(messages(array().max_length(1), Value::array({1, 2})),
              ElementsAre("length must be at most 1"));
}

TEST(SchemaTest, StringLengthCountsUtf8Bytes) {
  // "é" is two bytes in UTF-8.
  EXPECT_THAT(messages(string().max_length(1), Value("\xC3\xA9")),
              ElementsAre("length must be at most 1"));
}

TEST(SchemaTest, PatternMustMatchTheWholeString) {
  const Schema s = string().pattern("^x+$");
  EXPECT_THAT(messages(s, Value("xxx")), IsEmpty());
  EXPECT_THAT(messages(s, Value("xxy")), ElementsAre("must match pattern ^x+$"));
  // regex_match, not regex_search: an unanchored pattern still covers the whole string.
  EXPECT_THAT(messages(string().pattern("a"), Value("ab")), ElementsAre("must match pattern a"));
}

TEST(SchemaTest, InvalidPatternIsRejectedWhenDeclared) {
  EXPECT_THROW(string().pattern("(unclosed"), std::invalid_argument);
}

TEST(SchemaTest, CopiesShareTheCompiledPattern) {
  Schema original = string().pattern("[0-9]+");
  Schema copy = original;
  EXPECT_THAT(messages(copy, Value("123")), IsEmpty());
  EXPECT_THAT(messages(copy, Value("12a")), ElementsAre("must match pattern [0-9]+"));
}

TEST(SchemaTest, OneOfListsTheAllowedValues) {
  const Schema currency = string().one_of({"EUR", "USD"});
  EXPECT_THAT(messages(currency, Value("EUR")), IsEmpty());
  EXPECT_THAT(messages(currency, Value("GBP")), ElementsAre(R"(must be one of ["EUR","USD"])"));
}

TEST(SchemaTest, CollectsEveryBrokenPredicate) {
  const Schema s = string().min_length(5).pattern("^[a-z]+$").one_of({"hello", "world"});
  EXPECT_THAT(messages(s, Value("AB")),
              ElementsAre("length must be at least 5", "must match pattern ^[a-z]+$",
                          R"(must be one of ["hello","world"])"));
  EXPECT_THAT(messages(integer().min(10).one_of({20, 30}), Value(5)),
              ElementsAre("must be at least 10", "must be one of [20,30]"));
}

TEST(SchemaTest, CustomChecksRunAfterBuiltInsPass) {
  int calls = 0;
  auto even = [&calls](const Value& v) -> std::optional<std::string> {
    ++calls;
    if (v.get<int>() % 2 != 0) return "must be even";
    return std::nullopt;
  };
  auto small = [](const Value& v) -> std::optional<std::string> {
    if (v.get<int>() > 10) return "must be small";
    return std::nullopt;
  };
  const Schema s = integer().min(0).check(even).check(small);
  EXPECT_THAT(messages(s, Value(4)), IsEmpty());
  EXPECT_THAT(messages(s, Value(13)), ElementsAre("must be even", "must be small"));
  calls = 0;
  EXPECT_THAT(messages(s, Value(-1)), ElementsAre("must be at least 0"));
  EXPECT_EQ(calls, 0);
}

TEST(SchemaTest, ThrowingCheckBecomesAFieldError) {
  const Schema s = any().check(
      [](const Value&) -> std::optional<std::string> { throw std::runtime_error("boom"); });
  EXPECT_THAT(messages(s, Value(1)), ElementsAre("check failed: boom"));
}

TEST(SchemaTest, MessagesNeverContainTheValue) {
  const std::string secret = "s3cr3t-t0k3n";
  const Schema s =
      string().redacted().min_length(100).max_length(2).pattern("^x$").one_of({"a", "b"});
  std::vector<FieldError> errors = s.validate("token", Value(secret));
  ASSERT_EQ(errors.size(), 4u);
  for (const FieldError& e : errors) {
    EXPECT_EQ(e.message.find(secret), std::string::npos) << e.message;
    EXPECT_EQ(e.field, "token");
  }
  errors = integer().redacted().validate("pin", Value(secret));
  ASSERT_EQ(errors.size(), 1u);
  EXPECT_EQ(errors[0].message.find(secret), std::string::npos);
}

TEST(SchemaTest, AppendsToExistingErrors) {
  std::vector<FieldError> errors{{"other", "earlier"}};
  std::vector<FieldError> more = integer().validate("n", Value("x"));
  errors.insert(errors.end(), more.begin(), more.end());
  ASSERT_EQ(errors.size(), 2u);
  EXPECT_EQ(errors[1], (FieldError{"n", "must be an integer"}));
}

TEST(SchemaTest, PresenceFlags) {
  EXPECT_FALSE(string().is_optional());
  EXPECT_TRUE(string().optional().is_optional());
  const Schema with_default = string().default_value("EUR");
  EXPECT_TRUE(with_default.is_optional());
  ASSERT_TRUE(with_default.default_val().has_value());
  EXPECT_EQ(*with_default.default_val(), "EUR");
  EXPECT_FALSE(string().is_redacted());
  EXPECT_TRUE(string().redacted().is_redacted());
  EXPECT_EQ(integer().type(), ValueType::kInteger);
}

TEST(SchemaTest, ArrayOfObjectsNamesTheMissingMember) {
  const Value travellers = Value::parse(R"([
    {"email": "ann@x"}, {"email": "bob@x", "age": 40}, {"age": 7}
  ])");
  EXPECT_THAT(errors_of(array().items(traveller()), "travellers", travellers),
              ElementsAre("travellers[2].email: is missing"));
}

TEST(SchemaTest, WrongTypeDeepInsideNamesItsPath) {
  const Schema line = object().properties({{"sku", string()}, {"qty", integer().min(1)}});
  const Schema order = object().properties({{"lines", array().min_length(1).items(line)}});
  const Value v = Value::parse(R"({"lines": [{"sku": "a", "qty": 1}, {"sku": 5, "qty": 0}]})");
  EXPECT_THAT(errors_of(order, "order", v), ElementsAre("order.lines[1].sku: must be a string",
                                                        "order.lines[1].qty: must be at least 1"));
  // A present null is a value, checked like any other.
  EXPECT_THAT(errors_of(traveller(), "t", Value::parse(R"({"email": null})")),
              ElementsAre("t.email: must be a string"));
}

TEST(SchemaTest, OptionalMembersMayBeAbsentAndUnknownMembersAreAllowed) {
  EXPECT_THAT(errors_of(traveller(), "t", Value::parse(R"({"email": "ann@x"})")), IsEmpty());
  EXPECT_THAT(errors_of(traveller(), "t", Value::parse(R"({"email": "ann@x", "pet": "cat"})")),
              IsEmpty());
  // An optional member that is present is still checked.
  EXPECT_THAT(errors_of(traveller(), "t", Value::parse(R"({"email": "ann@x", "age": -1})")),
              ElementsAre("t.age: must be at least 0"));
}

TEST(SchemaTest, ItemsAndPropertiesOnTheWrongKindGiveTheTypeErrorOnly) {
  EXPECT_THAT(errors_of(array().items(integer()), "f", Value::object()),
              ElementsAre("f: must be an array"));
  EXPECT_THAT(errors_of(array().items(integer()), "f", Value(3)),
              ElementsAre("f: must be an array"));
  EXPECT_THAT(errors_of(traveller(), "f", Value::array({1})), ElementsAre("f: must be an object"));
  EXPECT_THAT(errors_of(traveller(), "f", Value("x")), ElementsAre("f: must be an object"));
  // On any(), each applies to the kind it is meaningful for.
  const Schema loose = any().items(integer()).properties({{"id", integer()}});
  EXPECT_THAT(errors_of(loose, "f", Value("x")), IsEmpty());
  EXPECT_THAT(errors_of(loose, "f", Value::array({"a"})), ElementsAre("f[0]: must be an integer"));
  EXPECT_THAT(errors_of(loose, "f", Value::object()), ElementsAre("f.id: is missing"));
}

TEST(SchemaTest, NestedArraysNameEveryIndex) {
  const Schema matrix = array().items(array().items(integer()).length(2, 2));
  EXPECT_THAT(errors_of(matrix, "matrix", Value::parse("[[1, 2], [3, 4]]")), IsEmpty());
  EXPECT_THAT(
      errors_of(matrix, "matrix", Value::parse(R"([[1, 2], ["a", 4], [5]])")),
      ElementsAre("matrix[1][0]: must be an integer", "matrix[2]: length must be at least 2"));
}

TEST(SchemaTest, ParentPredicatesAndNestedErrorsAreAllReported) {
  const Schema s = array().min_length(3).items(integer());
  EXPECT_THAT(errors_of(s, "f", Value::parse(R"([1, "x"])")),
              ElementsAre("f: length must be at least 3", "f[1]: must be an integer"));
}

TEST(SchemaTest, ParentCheckRunsOnlyWhenNestedValuesPass) {
  int calls = 0;
  const Schema s = object()
                       .properties({{"n", integer()}})
                       .check([&calls](const Value& v) -> std::optional<std::string> {
                         ++calls;
                         if (v["n"].get<int>() > 9) return "n must be small";
                         return std::nullopt;
                       });
  EXPECT_THAT(errors_of(s, "f", Value::parse(R"({"n": "x"})")),
              ElementsAre("f.n: must be an integer"));
  EXPECT_EQ(calls, 0);
  EXPECT_THAT(errors_of(s, "f", Value::parse(R"({"n": 10})")), ElementsAre("f: n must be small"));
  EXPECT_EQ(calls, 1);
}

TEST(SchemaTest, MemberNamesThatReadAsPathsAreQuoted) {
  const Schema s = object().properties({{"content.type", string()}, {"", integer()}});
  EXPECT_THAT(errors_of(s, "headers", Value::object()),
              ElementsAre(R"(headers["content.type"]: is missing)", R"(headers[""]: is missing)"));
}

TEST(SchemaTest, MemberListedTwiceIsRejectedWhenDeclared) {
  EXPECT_THROW(object().properties({{"a", integer()}, {"a", string()}}), std::invalid_argument);
}

TEST(SchemaTest, NestedMessagesNeverContainTheValue) {
  const std::string secret = "s3cr3t-t0k3n";
  const Schema s = array().items(object().properties(
      {{"token", string().min_length(100).pattern("^x$").one_of({"a"})}, {"pin", integer()}}));
  std::vector<FieldError> errors = s.validate(
      "creds", Value::parse(R"([{"token": ")" + secret + R"(", "pin": ")" + secret + R"("}])"));
  ASSERT_EQ(errors.size(), 4u);
  for (const FieldError& e : errors) {
    EXPECT_EQ(e.message.find(secret), std::string::npos) << e.message;
    EXPECT_EQ(e.field.find(secret), std::string::npos) << e.field;
  }
}

TEST(SchemaTest, CopiesShareNestedSchemasAndAccessorsReadThem) {
  Schema original = array().items(traveller());
  const Schema copy = original;
  original.items(integer());  // replaces the original's element schema, not the copy's
  ASSERT_NE(copy.item_schema(), nullptr);
  EXPECT_EQ(copy.item_schema()->type(), ValueType::kObject);
  EXPECT_EQ(original.item_schema()->type(), ValueType::kInteger);
  const Schema::Members& members = copy.item_schema()->members();
  ASSERT_EQ(members.size(), 3u);
  EXPECT_EQ(members[0].first, "email");
  EXPECT_FALSE(members[0].second.is_optional());
  EXPECT_TRUE(members[1].second.is_optional());
  EXPECT_EQ(string().item_schema(), nullptr);
  EXPECT_THAT(string().members(), IsEmpty());
}

// The example of docs/concepts.md ("Nested inputs"): the path in FieldError::field is what the
// run's error message shows.
TEST(SchemaTest, NestedInputErrorReadsInTheRunError) {
  Definition trip = Builder("Trip")
                        .input("travellers", array().min_length(1).items(object().properties({
                                                 {"email", string().pattern(R"(.+@.+)")},
                                                 {"age", integer().min(0).optional()},
                                             })))
                        .input("matrix", array().items(array().items(integer())).optional())
                        .step("book", [](const Args& a) { return Success(a["travellers"].size()); })
                        .build();

  Engine engine;
  RunResult r = engine.run(trip, Value::parse(R"({
    "travellers": [{"email": "ann@x"}, {"email": "bob@x", "age": 40}, {"age": 7}],
    "matrix": [[1, 2], ["3"]]
  })"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->kind, ErrorKind::kInputInvalid);
  EXPECT_THAT(r.error->validation_errors,
              ElementsAre(FieldError{"travellers[2].email", "is missing"},
                          FieldError{"matrix[1][0]", "must be an integer"}));
  EXPECT_EQ(r.error->message,
            "invalid inputs: travellers[2].email: is missing; matrix[1][0]: must be an integer");

  r = engine.run(trip, Value::parse(R"({"travellers": [{"email": "ann@x", "age": 30}]})"));
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.value["book"], 1);
}

// A member's default is filled in at any depth, as an input's is, and checked like a given value.
TEST(SchemaTest, NestedDefaultsAreFilledIn) {
  Schema trip = array().items(object().properties({
      {"email", string()},
      {"seat", string().default_value("any")},
      {"meal", object()
                   .default_value(Value::object())
                   .properties({
                       {"kind", string().one_of({"veg", "any"}).default_value("any")},
                   })},
  }));
  Value v = Value::parse(R"([{"email": "a@x"}, {"email": "b@x", "seat": "12A", "meal": {}}, 7])");
  v = trip.fill_defaults(std::move(v));
  EXPECT_EQ(v, Value::parse(R"([
    {"email": "a@x", "seat": "any", "meal": {"kind": "any"}},
    {"email": "b@x", "seat": "12A", "meal": {"kind": "any"}},
    7])"));
  Schema bad = object().properties({{"n", integer().default_value("x")}});
  Value empty = Value::object();
  empty = bad.fill_defaults(std::move(empty));
  EXPECT_THAT(errors_of(bad, "f", empty), ElementsAre("f.n: must be an integer"));
}

// redacted() on a member or an element masks it wherever the input is shown: a run's error,
// its observers' run_start.
TEST(SchemaTest, NestedRedactedValuesAreMasked) {
  Definition pay =
      Builder("Pay")
          .input("card", object().properties({
                             {"number", string().redacted()},
                             {"holder", string()},
                         }))
          .input("pins", array().items(integer().redacted()).default_value(Value::array()))
          .input("amount", integer().min(1))
          .step("charge", [](const Args&) { return Success(); })
          .build();
  Engine engine;
  RunResult r = engine.run(pay, Value::parse(R"({
    "card": {"number": "4111", "holder": "Ann"}, "pins": [1234, 5678], "amount": 0})"));
  ASSERT_TRUE(r.error);
  EXPECT_EQ(r.error->inputs, Value::parse(R"({
    "card": {"number": "[REDACTED]", "holder": "Ann"},
    "pins": ["[REDACTED]", "[REDACTED]"], "amount": 0})"));
  EXPECT_EQ(r.error->inputs.dump().find("4111"), std::string::npos);
}

TEST(SchemaTest, FieldErrorJsonRoundTrip) {
  const FieldError e{"amount", "must be at least 1"};
  const Value j = e;
  EXPECT_EQ(j, (Value{{"field", "amount"}, {"message", "must be at least 1"}}));
  EXPECT_EQ(j.get<FieldError>(), e);
}

}  // namespace
}  // namespace reactor
