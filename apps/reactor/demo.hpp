// `reactor demo`: a command of the shipped binary's own (reactor::CliCommand).
#pragma once

#include <string>
#include <vector>

namespace reactor_demo {

// Runs a batch of order sagas and prints a summary: by default in the
// background on SQLite (reactor-demo.db in the working directory; `storage` is
// not used) across two worker processes, one killed halfway. Returns 0 when
// every order ended as the example says it must and no step ran twice beyond
// the one in flight at the kill; 2 for a usage error.
int demo_command(const std::string& storage, const std::vector<std::string>& args);

}  // namespace reactor_demo
