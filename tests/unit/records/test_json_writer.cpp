// The hand-written JSON writer (records/json_writer.hpp) writes what nlohmann's dump() writes
// for the same text and values: any JSON reader, ours included, reads it back as it was.
#include <gtest/gtest.h>

#include <limits>

#include "records/json_writer.hpp"

namespace reactor::records {
namespace {

// Texts that need every kind of escape, and bytes that need none.
const std::string kSampleTexts[] = {"",
                                    "plain",
                                    "quote \" and \\ backslash",
                                    "tab\tnl\ncr\rbs\bff\f",
                                    std::string("nul\0and\x1f unit", 14),
                                    "caf\xc3\xa9 \xe2\x82\xac",
                                    "del\x7f"};

TEST(JsonWriter, StringsAreEscapedAsValueDumpEscapesThem) {
  for (const auto& text : kSampleTexts) {
    std::string out;
    append_string(out, text);
    EXPECT_EQ(out, Value(text).dump()) << "for " << Value(text).dump();
  }
}

// The writer scans eight bytes at a time: every character that needs an
// escape, and UTF-8 text, at every place in and across those words.
TEST(JsonWriter, EveryCharacterIsEscapedWhereverItStands) {
  std::vector<std::string> specials = {"\xc3\xa9", "\xe2\x82\xac", "\x7f", " ", "~"};
  for (int c = 0; c < 0x20; ++c) specials.emplace_back(1, static_cast<char>(c));
  specials.emplace_back("\"");
  specials.emplace_back("\\");
  for (const auto& special : specials) {
    for (std::size_t before = 0; before <= 17; ++before) {
      for (std::size_t after : {0, 1, 7, 8, 9}) {
        const std::string text = std::string(before, 'a') + special + std::string(after, 'b');
        std::string out;
        append_string(out, text);
        ASSERT_EQ(out, Value(text).dump()) << "for " << Value(text).dump();
      }
    }
  }
}

TEST(JsonWriter, ValuesAreWrittenAsValueDumpWritesThem) {
  const Value samples[] = {
      nullptr,
      true,
      false,
      0,
      std::numeric_limits<std::int64_t>::min(),
      std::numeric_limits<std::int64_t>::max(),
      std::numeric_limits<std::uint64_t>::max(),
      -17,
      1.5,
      -0.0,
      1e300,
      1796061181196.1826,
      "caf\xc3\xa9 \"q\" \\ \n \x01",
      Value::array(),
      Value::object(),
      Value{{"pad", std::string(140, 'x')}, {"counter", 2}, {"t", 17.25}, {"s", "s000042"}},
      Value{{"a\"b", {1, "two", nullptr, {{"z", Value::array({Value::object()})}}}},
            {"\xe2\x82\xac", -1}},
  };
  for (const auto& value : samples) {
    std::string out;
    append_value(out, value);
    EXPECT_EQ(out, value.dump());
  }
}

// What is not UTF-8 (a message quoting a record's bytes) is written as dump() with
// error_handler_t::replace writes it: never thrown at the writer, always readable back.
TEST(JsonWriter, TextThatIsNotUtf8IsWrittenWithReplacementCharacters) {
  const std::string texts[] = {"\xff",
                               "\xc0\xaf",
                               "\xc3",
                               "\xe2\x82",
                               "\xed\xa0\x80",
                               "\xf4\x90\x80\x80",
                               "\xf8\x88\x80\x80\x80",
                               "\x80",
                               "a\xc3\xa9",
                               "\xf4\x8f\xbf\xbf",
                               "\xef\xbf\xbf",
                               "\xe0\xa0\x80",
                               "quote \" \xff\n"};
  // Each alone, and after ASCII the check passes over a word at a time.
  std::vector<std::string> cases;
  for (const auto& text : texts) {
    for (std::size_t ascii : {0, 7, 8, 17}) cases.push_back(std::string(ascii, 'a') + text);
  }
  for (const auto& text : cases) {
    const Value value{{"k", text}, {text, 1}};
    const std::string expected = value.dump(-1, ' ', false, Value::error_handler_t::replace);
    std::string out;
    append_value(out, value);
    EXPECT_EQ(out, expected) << text.size() << " bytes";
    std::string alone;
    append_string(alone, text);
    EXPECT_EQ(alone, Value(text).dump(-1, ' ', false, Value::error_handler_t::replace));
    EXPECT_TRUE(valid_utf8(alone)) << alone;
    bool dump_throws = false;
    try {
      (void)Value(text).dump();
    } catch (const Value::type_error&) {
      dump_throws = true;
    }
    EXPECT_EQ(valid_utf8(text), !dump_throws) << text.size() << " bytes";
  }
}

// The writer keeps its own stack: a value nested a million levels deep (which the recursive
// writer overflowed the thread's stack on) is written, not crashed on.
TEST(JsonWriter, AValueOfAnyDepthIsWrittenWithoutRecursion) {
  constexpr int kDepth = 1000000;
  Value deep = 1;
  for (int i = 0; i < kDepth; ++i) {
    Value outer = Value::array();
    outer.push_back(std::move(deep));
    deep = std::move(outer);
  }
  std::string out;
  append_value(out, deep);
  EXPECT_EQ(out, std::string(kDepth, '[') + "1" + std::string(kDepth, ']'));
  Value wide{{"a", {{"b", Value::array({1, Value::object(), "x"})}}}, {"c", Value::array()}};
  out.clear();
  append_value(out, wide);
  EXPECT_EQ(out, wide.dump());
}

TEST(JsonWriter, ObjectsAreWhatValueDumpGives) {
  std::string out;
  ObjectWriter(out)
      .field("a", std::int64_t{-12})
      .field("b", std::uint64_t{18446744073709551615u})
      .field("c", true)
      .field("d", "x\"y")
      .value("e", Value{{"k", {1, 2.5, "z"}}})
      .null("f")
      .close();
  Value expected{{"a", -12},    {"b", 18446744073709551615u},  {"c", true},
                 {"d", "x\"y"}, {"e", {{"k", {1, 2.5, "z"}}}}, {"f", nullptr}};
  EXPECT_EQ(out, expected.dump());
}

}  // namespace
}  // namespace reactor::records
