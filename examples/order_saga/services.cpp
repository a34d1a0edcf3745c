#include <fcntl.h>
#include <unistd.h>

#include <cstdlib>

#include "order_saga/order_saga.hpp"

namespace examples {

Ledger::Ledger(std::string path) : path_(std::move(path)) {}

void Ledger::append(char kind, const std::string& key) const {
  append_line(std::string(1, kind) + " " + key + " " + std::to_string(::getpid()));
}

void Ledger::append_line(const std::string& text) const {
  if (path_.empty()) return;
  const std::string line = text + "\n";
  int fd = ::open(path_.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  if (fd < 0) return;
  ssize_t written = ::write(fd, line.data(), line.size());
  (void)written;  // best effort: the ledger is evidence, not state
  ::close(fd);
}

void OrderServices::configure_from_env() {
  if (const char* path = std::getenv("REACTOR_LEDGER")) ledger = Ledger(path);
  if (const char* ms = std::getenv("REACTOR_DEMO_STEP_MS")) step_ms = std::atoi(ms);
  if (const char* ms = std::getenv("REACTOR_DEMO_UNDO_MS")) undo_ms = std::atoi(ms);
}

std::string Inventory::reserve(int order_id, const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  if (it != by_key_.end()) return it->second;
  std::string reservation = "res-" + std::to_string(order_id);
  by_key_[key] = reservation;
  held_[reservation] = true;
  return reservation;
}

void Inventory::release(const std::string& reservation) {
  std::lock_guard lock(mu_);
  auto it = held_.find(reservation);
  if (it == held_.end() || !it->second) return;  // already released: idempotent
  it->second = false;
  ++released_;
}

int Inventory::reserved() const {
  std::lock_guard lock(mu_);
  int n = 0;
  for (const auto& [_, held] : held_) n += held ? 1 : 0;
  return n;
}

int Inventory::released() const {
  std::lock_guard lock(mu_);
  return released_;
}

bool Payments::charge(int order_id, int amount, const std::string& key, std::string& charge_id) {
  if (order_id % 10 == 0) return false;  // the demo's declined cards
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) {
    std::string id = "ch-" + std::to_string(order_id);
    it = by_key_.emplace(key, std::make_pair(id, amount)).first;
    live_[id] = amount;
  }
  charge_id = it->second.first;
  return true;
}

void Payments::refund(const std::string& charge_id) {
  std::lock_guard lock(mu_);
  live_.erase(charge_id);
}

int Payments::charged_total() const {
  std::lock_guard lock(mu_);
  int total = 0;
  for (const auto& [_, amount] : live_) total += amount;
  return total;
}

std::string Shipping::ship(int order_id, const std::string& key) {
  std::lock_guard lock(mu_);
  auto it = by_key_.find(key);
  if (it == by_key_.end()) it = by_key_.emplace(key, "parcel-" + std::to_string(order_id)).first;
  return it->second;
}

int Shipping::shipped() const {
  std::lock_guard lock(mu_);
  return static_cast<int>(by_key_.size());
}

}  // namespace examples
