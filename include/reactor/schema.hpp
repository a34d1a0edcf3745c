// Schema: the type and predicates a reactor input or a step output must meet.
//
//   .input("amount", integer().min(1))
//   .input("email", string().pattern(R"(.+@.+)").redacted())
//   .input("currency", string().one_of({"EUR", "USD"}).default_value("EUR"))
//   .input("note", string().max_length(200).optional())
//   .input("travellers", array().min_length(1).items(object().properties({
//       {"email", string().pattern(R"(.+@.+)")},
//       {"age", integer().min(0).optional()},
//   })))
//
// A Schema is a value: copies are cheap (nested schemas and the compiled pattern are shared,
// never modified) and a built schema is immutable, so one may be read from any number of threads
// at once. The builder methods modify the schema they are called on and are not thread-safe.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "reactor/error.hpp"
#include "reactor/value.hpp"

namespace reactor {

enum class ValueType { kAny, kInteger, kNumber, kString, kBoolean, kArray, kObject };

const char* to_string(ValueType type);

class Schema {
 public:
  // A custom rule: returns an error message, or nullopt when `v` is valid.
  using Check = std::function<std::optional<std::string>(const Value& v)>;
  // The members of an object, in the order they are checked and reported.
  using Members = std::vector<std::pair<std::string, Schema>>;

  explicit Schema(ValueType type = ValueType::kAny) : type_(type) {}

  // Bounds on numbers (integer, number).
  Schema& min(double bound);
  Schema& max(double bound);
  // Bounds on the length of strings and arrays.
  Schema& min_length(std::size_t n);
  Schema& max_length(std::size_t n);
  Schema& length(std::size_t min_n, std::size_t max_n);
  // ECMAScript regular expression that the whole string must match.
  Schema& pattern(std::string regex);
  Schema& one_of(std::vector<Value> allowed);
  // A custom predicate; runs only when the type and built-in predicates pass (nested
  // items and properties included).
  Schema& check(Check rule);

  // Nested values. Each applies, like the predicates above, to the kind of value it is meaningful
  // for, and is checked only when the value has the schema's type. An error of a nested value
  // names its path from the field, as in travellers[2].email or matrix[1][0]; a member name not
  // made of letters, digits, '_' and '-' is quoted, as in headers["content.type"].
  //
  // items(): every element of an array must meet `element` (its presence flags are ignored: an
  // element is always present). Replaces an earlier items().
  Schema& items(Schema element);
  // properties(): the listed members of an object. A member is required ("is missing" when
  // absent) unless its schema is optional() or has a default_value(); a present member, null
  // included, must meet its schema. Members not listed are allowed and not checked. Replaces an
  // earlier properties(); throws std::invalid_argument if a name is listed twice.
  //
  // A member's default_value() is filled in when the member is absent, as an input's is
  // (fill_defaults), and a redacted() member or element is masked wherever its input would be
  // (mask). Messages never quote a value, at any depth.
  Schema& properties(Members members);

  // Presence (meaningful for inputs): absent optional inputs are simply not
  // set; absent inputs with a default get the default.
  Schema& optional();
  Schema& default_value(Value v);
  // Masked as "[REDACTED]" in errors, traces and logs; stored as given (a
  // durable store holds the real value: this is not encryption).
  Schema& redacted();

  bool is_optional() const { return optional_ || default_.has_value(); }
  bool is_redacted() const { return redacted_; }
  const std::optional<Value>& default_val() const { return default_; }
  ValueType type() const { return type_; }
  // The element schema set by items(), or null.
  const Schema* item_schema() const { return items_.get(); }
  // The members set by properties(), empty when none.
  const Members& members() const;

  // `v` with the default_value() of every absent member filled in, at every depth the schema
  // nests (properties() of objects, items() of arrays); a value not of the type a nested schema
  // is for is left as it is. Validation comes after, so a default is checked like a given value.
  // Takes `v` by value: move it in (`v = schema.fill_defaults(std::move(v))`) and nothing is
  // copied.
  [[nodiscard]] Value fill_defaults(Value v) const;
  // A copy of `v` with what is redacted() replaced by "[REDACTED]": `v` itself, or its redacted
  // members and elements at every depth the schema nests.
  Value mask(const Value& v) const;

  // One FieldError per broken rule of `v` (a present value), nested values included; empty
  // when it is valid (no allocation then). A nested error's FieldError::field is its path from
  // `field`. Recurses only as deep as the schema nests, whatever the depth of `v`.
  [[nodiscard]] std::vector<FieldError> validate(const std::string& field, const Value& v) const;

 private:
  std::vector<FieldError> validate_type(const std::string& field, const Value& v) const;
  std::vector<FieldError> validate_nested(const std::string& field, const Value& v) const;

  // The compiled pattern_ (a std::regex, kept out of this header), built once by pattern() and
  // shared by copies of the schema.
  struct CompiledPattern;

  ValueType type_;
  std::optional<double> min_, max_;
  std::optional<std::size_t> min_length_, max_length_;
  std::optional<std::string> pattern_;
  std::shared_ptr<const CompiledPattern> compiled_pattern_;
  std::vector<Value> one_of_;
  std::vector<Check> checks_;
  std::shared_ptr<const Schema> items_;
  std::shared_ptr<const Members> properties_;
  bool optional_ = false;
  bool redacted_ = false;
  std::optional<Value> default_;
};

inline Schema any() { return Schema(ValueType::kAny); }
inline Schema integer() { return Schema(ValueType::kInteger); }
inline Schema number() { return Schema(ValueType::kNumber); }
inline Schema string() { return Schema(ValueType::kString); }
inline Schema boolean() { return Schema(ValueType::kBoolean); }
inline Schema array() { return Schema(ValueType::kArray); }
inline Schema object() { return Schema(ValueType::kObject); }

}  // namespace reactor
