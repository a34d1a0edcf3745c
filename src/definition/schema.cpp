#include "reactor/schema.hpp"

#include <algorithm>
#include <charconv>
#include <exception>
#include <regex>
#include <stdexcept>

namespace reactor {

struct Schema::CompiledPattern {
  std::regex regex;
};

namespace {

// Bounds are doubles; print 1 as "1", not "1.000000", and any other value in its shortest exact
// form, so the message reads like the definition that set it.
std::string format_bound(double bound) {
  char buf[64];
  auto [end, ec] = std::to_chars(buf, buf + sizeof buf, bound);
  if (ec != std::errc()) return std::to_string(bound);
  return std::string(buf, end);
}

// Moves `more` to the end of `out` (nothing to do, and no allocation, when `more` is empty).
void append(std::vector<FieldError>& out, std::vector<FieldError> more) {
  if (more.empty()) return;
  if (out.empty()) {
    out = std::move(more);
    return;
  }
  out.insert(out.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
}

void add(std::vector<FieldError>& out, const std::string& field, std::string message) {
  out.push_back(FieldError{field, std::move(message)});
}

std::string element_path(const std::string& field, std::size_t index) {
  return field + "[" + std::to_string(index) + "]";
}

// "field.name", or field["na.me"] when the name could be misread as a path (or is empty).
std::string member_path(const std::string& field, const std::string& name) {
  const bool plain = !name.empty() && std::all_of(name.begin(), name.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
           c == '-';
  });
  if (!plain) return field + "[" + Value(name).dump() + "]";
  return field.empty() ? name : field + "." + name;
}

}  // namespace

const char* to_string(ValueType type) {
  switch (type) {
    case ValueType::kAny:
      return "any";
    case ValueType::kInteger:
      return "integer";
    case ValueType::kNumber:
      return "number";
    case ValueType::kString:
      return "string";
    case ValueType::kBoolean:
      return "boolean";
    case ValueType::kArray:
      return "array";
    case ValueType::kObject:
      return "object";
  }
  return "unknown";
}

Schema& Schema::min(double bound) {
  min_ = bound;
  return *this;
}

Schema& Schema::max(double bound) {
  max_ = bound;
  return *this;
}

Schema& Schema::min_length(std::size_t n) {
  min_length_ = n;
  return *this;
}

Schema& Schema::max_length(std::size_t n) {
  max_length_ = n;
  return *this;
}

Schema& Schema::length(std::size_t min_n, std::size_t max_n) {
  min_length_ = min_n;
  max_length_ = max_n;
  return *this;
}

// Compiled here, once, so a bad expression fails while the definition is built rather than on
// the first run, and validation never recompiles it.
Schema& Schema::pattern(std::string regex) {
  try {
    compiled_pattern_ = std::make_shared<const CompiledPattern>(
        CompiledPattern{std::regex(regex, std::regex::ECMAScript)});
  } catch (const std::regex_error& e) {
    throw std::invalid_argument("invalid pattern '" + regex + "': " + e.what());
  }
  pattern_ = std::move(regex);
  return *this;
}

Schema& Schema::one_of(std::vector<Value> allowed) {
  one_of_ = std::move(allowed);
  return *this;
}

Schema& Schema::check(Check rule) {
  checks_.push_back(std::move(rule));
  return *this;
}

Schema& Schema::items(Schema element) {
  items_ = std::make_shared<const Schema>(std::move(element));
  return *this;
}

// Checked here, so a schema that lists a member twice (the second would silently win or double
// every error) fails while the definition is built.
Schema& Schema::properties(Members members) {
  for (auto it = members.begin(); it != members.end(); ++it) {
    for (auto earlier = members.begin(); earlier != it; ++earlier) {
      if (earlier->first == it->first) {
        throw std::invalid_argument("property '" + it->first + "' is listed twice");
      }
    }
  }
  properties_ = std::make_shared<const Members>(std::move(members));
  return *this;
}

const Schema::Members& Schema::members() const {
  static const Members kNone;
  return properties_ ? *properties_ : kNone;
}

Schema& Schema::optional() {
  optional_ = true;
  return *this;
}

Schema& Schema::default_value(Value v) {
  default_ = std::move(v);
  return *this;
}

Schema& Schema::redacted() {
  redacted_ = true;
  return *this;
}

// No message below quotes the value: it may be a redacted secret.
std::vector<FieldError> Schema::validate_type(const std::string& field, const Value& v) const {
  std::vector<FieldError> out;
  switch (type_) {
    case ValueType::kAny:
      return out;
    case ValueType::kInteger:
      // A float with an integral value (1.0) is still a float: JSON writers that emit it meant
      // a number, and accepting it would make get<int64_t>() truncate silently elsewhere.
      if (!v.is_number_integer()) add(out, field, "must be an integer");
      return out;
    case ValueType::kNumber:
      if (!v.is_number()) add(out, field, "must be a number");
      return out;
    case ValueType::kString:
      if (!v.is_string()) add(out, field, "must be a string");
      return out;
    case ValueType::kBoolean:
      if (!v.is_boolean()) add(out, field, "must be a boolean");
      return out;
    case ValueType::kArray:
      if (!v.is_array()) add(out, field, "must be an array");
      return out;
    case ValueType::kObject:
      if (!v.is_object()) add(out, field, "must be an object");
      return out;
  }
  return out;
}

// A type error ends validation (the predicates would only repeat it); otherwise every broken
// predicate is reported, so a caller can fix all of them in one go. Each predicate applies to
// the kinds of value it is meaningful for (bounds to numbers, lengths to strings and arrays,
// patterns to strings), which matters for any() schemas.
std::vector<FieldError> Schema::validate(const std::string& field, const Value& v) const {
  std::vector<FieldError> out = validate_type(field, v);
  if (!out.empty()) return out;

  if (v.is_number()) {
    const double n = v.get<double>();
    if (min_ && n < *min_) add(out, field, "must be at least " + format_bound(*min_));
    if (max_ && n > *max_) add(out, field, "must be at most " + format_bound(*max_));
  }

  if (v.is_string() || v.is_array()) {
    // Strings count UTF-8 bytes: a bound on storage size, which is what limits usually protect.
    const std::size_t len = v.is_string() ? v.get_ref<const std::string&>().size() : v.size();
    if (min_length_ && len < *min_length_) {
      add(out, field, "length must be at least " + std::to_string(*min_length_));
    }
    if (max_length_ && len > *max_length_) {
      add(out, field, "length must be at most " + std::to_string(*max_length_));
    }
  }

  if (compiled_pattern_ && v.is_string() &&
      !std::regex_match(v.get_ref<const std::string&>(), compiled_pattern_->regex)) {
    add(out, field, "must match pattern " + *pattern_);
  }

  if (!one_of_.empty() && std::find(one_of_.begin(), one_of_.end(), v) == one_of_.end()) {
    add(out, field, "must be one of " + Value(one_of_).dump());
  }

  append(out, validate_nested(field, v));

  // Custom rules may rely on the built-in ones (a length, a type, a member), so they run only
  // when those pass. They are user code: an exception becomes an error of this field, not of the
  // caller.
  if (!out.empty()) return out;
  for (const Check& rule : checks_) {
    try {
      if (std::optional<std::string> message = rule(v)) add(out, field, std::move(*message));
    } catch (const std::exception& e) {
      add(out, field, std::string("check failed: ") + e.what());
    } catch (...) {
      add(out, field, "check failed");
    }
  }
  return out;
}

// Recursion follows the schema, not the value: it is as deep as the user nested items() and
// properties(), however deep `v` is.
std::vector<FieldError> Schema::validate_nested(const std::string& field, const Value& v) const {
  std::vector<FieldError> out;
  if (items_ && v.is_array()) {
    for (std::size_t i = 0; i < v.size(); ++i)
      append(out, items_->validate(element_path(field, i), v[i]));
  }
  if (properties_ && v.is_object()) {
    for (const auto& [name, member] : *properties_) {
      auto it = v.find(name);
      if (it != v.end()) {
        append(out, member.validate(member_path(field, name), *it));
      } else if (!member.is_optional()) {
        // The phrase of a missing input (validate_inputs), so both read alike.
        add(out, member_path(field, name), "is missing");
      }
    }
  }
  return out;
}

Value Schema::fill_defaults(Value v) const {
  if (items_ && v.is_array()) {
    for (Value& element : v) element = items_->fill_defaults(std::move(element));
  }
  if (properties_ && v.is_object()) {
    for (const auto& [name, member] : *properties_) {
      auto it = v.find(name);
      if (it != v.end()) {
        *it = member.fill_defaults(std::move(*it));
      } else if (member.default_val()) {
        v[name] = member.fill_defaults(*member.default_val());
      }
    }
  }
  return v;
}

Value Schema::mask(const Value& v) const {
  if (redacted_) return Value("[REDACTED]");
  Value out = v;
  if (items_ && out.is_array()) {
    for (Value& element : out) element = items_->mask(element);
  }
  if (properties_ && out.is_object()) {
    for (const auto& [name, member] : *properties_) {
      if (auto it = out.find(name); it != out.end()) *it = member.mask(*it);
    }
  }
  return out;
}

}  // namespace reactor
