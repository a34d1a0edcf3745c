// OrderSaga: reserve stock → charge card → ship, each with the code that
// reverts it. The example every Reactor command and demo runs.
//
// Orders whose order_id is a multiple of 10 have their card declined at the
// charge step: the saga then compensates the charge and releases the stock.
#pragma once

#include <map>
#include <mutex>
#include <reactor/reactor.hpp>
#include <string>

namespace examples {

// In-memory stand-ins for the external systems a real saga would call. Each
// call takes the step's idempotency key, as a real API would: repeating a
// call with the same key changes nothing.
class Inventory {
 public:
  std::string reserve(int order_id, const std::string& idempotency_key);
  void release(const std::string& reservation);
  int reserved() const;  // reservations currently held
  int released() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> by_key_;  // idempotency key → reservation
  std::map<std::string, bool> held_;           // reservation → still held
  int released_ = 0;
};

class Payments {
 public:
  // Throws nothing; a declined card is reported by returning false.
  bool charge(int order_id, int amount, const std::string& idempotency_key, std::string& charge_id);
  void refund(const std::string& charge_id);
  int charged_total() const;  // cents charged and not refunded

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::pair<std::string, int>> by_key_;  // key → (charge id, amount)
  std::map<std::string, int> live_;                            // charge id → amount
};

class Shipping {
 public:
  std::string ship(int order_id, const std::string& idempotency_key);
  int shipped() const;

 private:
  mutable std::mutex mu_;
  std::map<std::string, std::string> by_key_;
};

// An append-only file of side effects, outside the engine's storage: one
// line per step body start ("S <idempotency key> <pid>"), end ("E …"),
// compensate ("C …") and undo ("U …"). Crash tests and the demo read it to prove what
// ran and how often. Appends are single write(2) calls with O_APPEND, so
// lines from several processes never interleave.
class Ledger {
 public:
  explicit Ledger(std::string path = "");
  void append(char kind, const std::string& key) const;
  // Appends `line` and a newline as is, in one write (other examples' own line formats).
  void append_line(const std::string& line) const;
  bool enabled() const { return !path_.empty(); }
  const std::string& path() const { return path_; }

 private:
  std::string path_;
};

struct OrderServices {
  Inventory inventory;
  Payments payments;
  Shipping shipping;
  Ledger ledger;
  // Each step body sleeps this long (makes crashes land inside steps).
  int step_ms = 0;
  // Each undo of the order saga sleeps this long before it leaves its mark (makes a crash land
  // inside an undo).
  int undo_ms = 0;

  // REACTOR_LEDGER (path), REACTOR_DEMO_STEP_MS and REACTOR_DEMO_UNDO_MS from the environment.
  void configure_from_env();
};

// The saga, bound to `services` (which must outlive the definition).
reactor::Definition order_saga(OrderServices& services);

// Registers every example reactor: "OrderSaga", "GiftOrder" with its
// composed child "Shipment" (examples/gift_order), "FanOutSum" with its
// element reactor "FanOutSum.element" (examples/fan_out_sum), "AsyncOrder"
// (examples/async_order), "RefundApproval" (examples/refund_approval) and "TransferFunds"
// (examples/transfer_funds), with the rate limit "bank" it names.
void register_examples(reactor::Registry& registry, OrderServices& services);

}  // namespace examples
