// What the worker needs from an Engine beyond its public API.
#pragma once

#include "durability/durable_runner.hpp"
#include "reactor/engine.hpp"

namespace reactor {

struct EngineInternals {
  // The durable environment of an engine that has a backend (else nullptr).
  static DurableEnv* durable_env(Engine& engine);
};

}  // namespace reactor
