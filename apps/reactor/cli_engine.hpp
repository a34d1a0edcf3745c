// CliEngine: an Engine on the storage named by --storage, serving the
// example reactors, as every storage command needs one.
#pragma once

#include <iostream>
#include <memory>
#include <string>

#include "order_saga/order_saga.hpp"
#include "reactor/reactor.hpp"

namespace reactor_cli {

class CliEngine {
 public:
  // Opens the backend; prints the error and returns false when it cannot.
  bool open(const std::string& url, const reactor::DurabilityOptions& durability);
  reactor::Engine& engine() { return *engine_; }
  reactor::Status sweep_once(std::size_t& requeued, std::size_t& purged);

 private:
  examples::OrderServices services_;
  std::unique_ptr<reactor::Engine> engine_;
};

}  // namespace reactor_cli
