// FanOutSum: a fan-out map over 0 … count-1 (docs/maps.md). Element i runs as
// a job of its own on any worker; its one step, `add`, sleeps step_ms and
// returns 2i + 1 — or fails for good when i equals fail_at — and its undo
// takes that back. The map is atomic, at most batch_size elements out at once,
// and its items come a page at a time, so a map of 100,000 never sits in one
// record. The run's value is {"sum": count², "count": count}; with fail_at set
// the run fails and every completed element is undone once. With claim = n > 1
// the elements are claimed n at a time (docs/maps.md, "Claims"): each claim one
// job, its elements run one after another by the worker that fetches it.
//
// Each add and undo leaves its line in the order example's ledger
// (REACTOR_LEDGER: "S"/"E" around a body, "U" for an undo), keyed by its
// idempotency key "<run id>:sum[i]/add".
#pragma once

#include <reactor/reactor.hpp>

#include "order_saga/order_saga.hpp"

namespace examples {

// Inputs: count (integer ≥ 0), batch_size (integer ≥ 1, default 50), claim
// (integer ≥ 1, default 1: each element a run), fail_at (integer, optional),
// step_ms (integer ≥ 0, default 0). Bound to `services` (its ledger), which must
// outlive the definition.
reactor::Definition fan_out_sum(OrderServices& services);

}  // namespace examples
