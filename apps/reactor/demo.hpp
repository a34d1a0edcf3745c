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
// With --map, run_map_demo() instead.
int demo_command(const std::string& storage, const std::vector<std::string>& args);

// `reactor demo --map` (demo_map.cpp): one FanOutSum run over 2,000 elements, batch 50, on
// SQLite in a directory of its own under $TMPDIR (kept, for `reactor show`), across two worker
// processes, one killed with SIGKILL mid-map and replaced; a live progress line until the run
// ends. Returns 0 when it completed with the sum 2,000² and no element step started again
// beyond those in flight in the killed worker.
int run_map_demo();

// `reactor demo --async` (demo_async.cpp): AsyncOrder runs started in this process — reserve and
// charge run here, the rest is handed off — on SQLite in a directory of its own under $TMPDIR,
// across two worker processes that run ship, the unit notify and the child Invoice. Prints
// where each step ran. Returns 0 when every good order completed with its invoice, the declined
// one failed in this process with nothing handed off, and every step ran once.
int run_async_demo();

// `reactor demo --approval` (demo_approval.cpp): three RefundApproval runs pause at their
// interrupt; one is approved by its correlation id, one rejected by its run id and step, and one
// left to its 2 s active timeout, on SQLite in a directory of its own under $TMPDIR, with one
// worker process. Returns 0 when the first completed and the others failed, their reservations
// released.
int run_approval_demo();

// `reactor demo --coordination` (demo_coordination.cpp): 40 TransferFunds runs among accounts
// A-E on SQLite in a directory of its own under $TMPDIR, across two worker processes, one killed
// with SIGKILL mid-way. Prints the balances; returns 0 when the total is unchanged, no account
// went below zero, the bank never had more than 2 calls in flight and every transfer ended with
// its money moved as its run says.
int run_coordination_demo();

}  // namespace reactor_demo
