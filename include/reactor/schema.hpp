// Schema: the type and predicates a reactor input or a step output must meet.
//
//   .input("amount", integer().min(1))
//   .input("email", string().pattern(R"(.+@.+)").redacted())
//   .input("currency", string().one_of({"EUR", "USD"}).default_value("EUR"))
//   .input("note", string().max_length(200).optional())
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
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
  // A custom predicate; runs only when the type and built-in predicates pass.
  Schema& check(Check rule);

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

  // Appends one FieldError per broken rule of `v` (a present value).
  void validate(const std::string& field, const Value& v, std::vector<FieldError>& out) const;

 private:
  void validate_type(const std::string& field, const Value& v, std::vector<FieldError>& out) const;

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
