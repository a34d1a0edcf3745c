// Ids: how runs, executions and owners are named.
#pragma once

#include <string>

namespace reactor {

// A fresh random (version 4) UUID: "3f2a9c1e-…". Thread-safe; each thread
// draws from its own generator, seeded once from std::random_device.
std::string new_run_id();

}  // namespace reactor
