// Args: the resolved arguments a step receives.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "reactor/value.hpp"

namespace reactor {

// Thrown by Args when a step asks for an argument it did not declare. The
// engine turns it into a non-retryable failure of that step.
class UndeclaredArgument : public std::runtime_error {
 public:
  explicit UndeclaredArgument(const std::string& name)
      : std::runtime_error("undeclared argument '" + name + "'") {}
};

// Values are viewed, not copied: each refers to an input or to the stored
// result of an earlier step, which stay unchanged while the step runs. Values
// that had to be computed (a path, a transform) are owned here.
class Args {
 public:
  Args() = default;
  Args(const Args&) = delete;
  Args& operator=(const Args&) = delete;
  Args(Args&&) = default;
  Args& operator=(Args&&) = default;

  bool has(std::string_view name) const { return find(name) != nullptr; }
  // Throws UndeclaredArgument.
  const Value& operator[](std::string_view name) const;
  template <typename T>
  T get(std::string_view name) const {
    return (*this)[name].template get<T>();
  }
  std::size_t size() const { return entries_.size(); }

  // All arguments as one JSON object (a copy).
  Value to_json() const;

  // For the engine and for tests.
  void add_view(std::string name, const Value* value);
  void add_owned(std::string name, Value value);
  // Like add_view, for a caller that guarantees `name` is not there yet (the
  // engine: build() rejects duplicate argument names). Constant time.
  void append_view(std::string name, const Value* value);
  void reserve(std::size_t n) { entries_.reserve(n); }
  // No arguments, the storage kept (the engine reuses one Args from step to step).
  void clear();

 private:
  struct Entry {
    std::string name;
    const Value* view;
    std::size_t owned;  // index into owned_ when view == nullptr
  };
  const Value* find(std::string_view name) const;

  std::vector<Entry> entries_;
  std::vector<std::unique_ptr<Value>> owned_;
  // With many arguments (a fan-in), lookups go through entry indices sorted
  // by name, built on the first lookup after the last add.
  mutable std::vector<std::uint32_t> by_name_;
};

}  // namespace reactor
