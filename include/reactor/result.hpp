// Result<T>: what a library operation returns — its value, or the Status of
// why there is none (after Abseil's StatusOr). Results come back, not out:
// `Result<RunResult> r = engine.find(id);` in place of a reference argument
// the callee writes.
//
//   Result<RunResult> r = engine.find(id);
//   if (!r.ok()) return r.status();
//   RunResult found = std::move(r).value();  // moved out, not copied
//
// Contract: a Result holds exactly one of a T or a non-ok Status. It is built
// implicitly from either, so a function returning Result<T> says
// `return value;` or `return Status::NotFound(...);`. Building one from an ok
// Status is a programming error (there would be no value): the Result holds
// Status::Internal saying so instead, in every build, so the mistake shows as
// an error where it is read. value(), operator* and operator-> on a Result
// that is not ok are programming errors too: they abort the process.
//
// Cost: no allocation of its own; it holds the T or the Status in place (a
// std::variant), and `std::move(r).value()` / `*std::move(r)` move the value out.
//
// Thread safety: as a T and a Status — const methods may be called from
// several threads at once; anything else needs external synchronization.
#pragma once

#include <cstdlib>
#include <type_traits>
#include <utility>
#include <variant>

#include "reactor/status.hpp"

namespace reactor {

template <class T>
class [[nodiscard]] Result {
  static_assert(!std::is_same_v<std::remove_cv_t<T>, Status>,
                "Result<Status> says nothing a Status does not");
  static_assert(!std::is_reference_v<T>, "a Result holds a value, not a reference");

 public:
  using value_type = T;

  // The value (implicit: `return value;`). Also from anything a T is implicitly
  // made of: `return std::make_unique<Derived>()`, `return std::nullopt`.
  template <class U = T>
  requires(std::is_convertible_v<U&&, T> && !std::is_same_v<std::remove_cvref_t<U>, Result> &&
           !std::is_same_v<std::remove_cvref_t<U>, Status>) Result(U&& value)
      : state_(std::in_place_index<0>, std::forward<U>(value)) {}  // NOLINT

  // Why there is no value (implicit: `return Status::NotFound(...);`). An ok
  // status is a programming error: the Result then holds Status::Internal.
  Result(Status status)  // NOLINT
      : state_(std::in_place_index<1>, status.ok() ? not_ok_from_ok() : std::move(status)) {}

  bool ok() const { return state_.index() == 0; }
  // Ok when there is a value, else the error.
  const Status& status() const& { return ok() ? ok_status() : std::get<1>(state_); }
  Status status() && { return ok() ? Status::Ok() : std::get<1>(std::move(state_)); }

  // The value. Aborts when !ok().
  T& value() & { return checked(); }
  const T& value() const& { return checked(); }
  T&& value() && { return std::move(checked()); }

  T& operator*() & { return checked(); }
  const T& operator*() const& { return checked(); }
  T&& operator*() && { return std::move(checked()); }
  T* operator->() { return &checked(); }
  const T* operator->() const { return &checked(); }

  // The value, or `fallback` when !ok().
  template <class U>
  T value_or(U&& fallback) const& {
    return ok() ? std::get<0>(state_) : static_cast<T>(std::forward<U>(fallback));
  }
  template <class U>
  T value_or(U&& fallback) && {
    return ok() ? std::get<0>(std::move(state_)) : static_cast<T>(std::forward<U>(fallback));
  }

 private:
  static Status not_ok_from_ok() {
    return Status::Internal("Result built from an ok Status: no value");
  }
  static const Status& ok_status() {
    static const Status ok;
    return ok;
  }
  T& checked() {
    if (!ok()) std::abort();  // reading the value of an error: a programming error
    return *std::get_if<0>(&state_);
  }
  const T& checked() const {
    if (!ok()) std::abort();
    return *std::get_if<0>(&state_);
  }

  std::variant<T, Status> state_;
};

}  // namespace reactor
