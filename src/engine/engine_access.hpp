// EngineAccess: how the library's own Worker reaches the durable runtime of an Engine (its
// DurableEnv, src/durability/durable_env.hpp), which the public Engine does not expose. Not
// installed; for src/engine/ and the library's tests.
#pragma once

#include "durability/durable_env.hpp"
#include "reactor/engine.hpp"

namespace reactor {

struct EngineAccess {
  // The engine's durable runtime; nullptr without a backend.
  static DurableEnv* durable_env(const Engine& engine);
};

}  // namespace reactor
