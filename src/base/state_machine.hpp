// StateMachine: a table of transitions "from, on event, to" and the one function that follows
// it — how the run's life (run_machine.hpp) and a step's (step_machine.hpp) are each written
// in one screen. Rows are counted as they are taken, so that the test suite can say which it
// never reached (scripts/check_transitions.sh), as Temporal's sdk-core does for its machines.
// Thread-safe: the counters are atomic; the table is immutable.
#pragma once

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

namespace reactor {

template <class State, class Event>
struct Transition {
  std::optional<State> from;  // nullopt: any state the machine's wildcard admits
  Event event;
  State to;
};

template <class State, class Event, std::size_t N>
class StateMachine {
 public:
  using Row = Transition<State, Event>;

  // `wildcard` says which states a row without `from` applies to.
  constexpr StateMachine(std::array<Row, N> rows, bool (*wildcard)(State))
      : rows_(rows), wildcard_(wildcard) {}

  std::span<const Row> rows() const { return rows_; }

  // The state `from` goes to on `event`; nullopt when no row allows it.
  std::optional<State> next(State from, Event event) const {
    if (auto k = row_of(from, event)) return rows_[*k].to;
    return std::nullopt;
  }

  // Moves `state` on `event` and counts the row. An event no row allows from `state` (a bug of
  // the engine's) is counted as illegal and applied all the same — each event leads to one
  // state whatever the row —, never thrown, so that nothing is left half-done by the check.
  void apply(State& state, Event event) {
    if (const std::optional<std::size_t> k = row_of(state, event)) {
      taken_[*k].fetch_add(1, std::memory_order_relaxed);
      state = rows_[*k].to;
      return;
    }
    illegal_.fetch_add(1, std::memory_order_relaxed);
    for (const Row& row : rows_) {
      if (row.event == event) {
        state = row.to;
        return;
      }
    }
  }

  // How often each row was taken in this process, in table order; and the illegal events.
  std::vector<std::uint64_t> taken() const {
    std::vector<std::uint64_t> out;
    for (const auto& n : taken_) out.push_back(n.load(std::memory_order_relaxed));
    return out;
  }
  std::uint64_t illegal() const { return illegal_.load(std::memory_order_relaxed); }

 private:
  std::optional<std::size_t> row_of(State from, Event event) const {
    for (std::size_t k = 0; k < N; ++k) {
      const Row& row = rows_[k];
      if (row.event == event && (row.from ? *row.from == from : wildcard_(from))) return k;
    }
    return std::nullopt;
  }

  std::array<Row, N> rows_;
  bool (*wildcard_)(State);
  std::array<std::atomic<std::uint64_t>, N> taken_{};
  std::atomic<std::uint64_t> illegal_{0};
};

}  // namespace reactor
