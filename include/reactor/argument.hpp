// Where a step argument comes from: a reactor input, an earlier step's
// result, a literal, or the current element of a map.
//
//   .argument("order_id", input("order_id"))
//   .argument("city", input("address", "shipping.city"))
//   .argument("reservation", result("reserve", "reservation"))
//   .argument("cents", result("quote").transform([](const Value& v) { return v["eur"] * 100; }))
//   .argument("mode", value("strict"))
//   .argument("item", element("charge_all"))
#pragma once

#include <functional>
#include <string>
#include <utility>

#include "reactor/value.hpp"

namespace reactor {

class ArgumentSource {
 public:
  enum class Kind { kInput, kResult, kValue, kElement };
  using Transform = std::function<Value(const Value&)>;

  // Applied to the resolved value. A transform that throws makes the step
  // fail with an argument resolution error (not compensated, not retried).
  ArgumentSource& transform(Transform fn) & {
    transform_ = std::move(fn);
    return *this;
  }
  ArgumentSource&& transform(Transform fn) && {
    transform_ = std::move(fn);
    return std::move(*this);
  }

  Kind kind() const { return kind_; }
  // Input name, step name or map name.
  const std::string& name() const { return name_; }
  // Dotted path inside the value ("a.b.0"); empty for the whole value.
  const std::string& path() const { return path_; }
  const Value& literal() const { return literal_; }
  const Transform& transform_fn() const { return transform_; }

  friend ArgumentSource input(std::string name, std::string path);
  friend ArgumentSource result(std::string step, std::string path);
  friend ArgumentSource value(Value v);
  friend ArgumentSource element(std::string map);

 private:
  ArgumentSource(Kind k, std::string name, std::string path, Value literal)
      : kind_(k), name_(std::move(name)), path_(std::move(path)), literal_(std::move(literal)) {}

  Kind kind_;
  std::string name_;
  std::string path_;
  Value literal_;
  Transform transform_;
};

ArgumentSource input(std::string name, std::string path = "");
// Also makes the step depend on `step`.
ArgumentSource result(std::string step, std::string path = "");
ArgumentSource value(Value v);
// Only inside a map's arguments: the element being processed.
ArgumentSource element(std::string map);

}  // namespace reactor
