// Writer: how one execution of a run writes. Every commit is fenced by the
// run's lease token; the commit that makes the run terminal or suspends it
// also acknowledges the job that brought it here and releases the lease (and
// a suspension enqueues the job that wakes it), so ending or handing back a
// run costs no extra round trip.
#pragma once

#include <optional>
#include <string>

#include "durability/durable_env.hpp"
#include "execution/checkpoint_delta.hpp"

namespace reactor {

// A worker's next job, asked for with the commit that ends the current run
// (Backend::commit_then_fetch): `delivery` holds it, when one was due.
struct NextDelivery {
  FetchRequest request;
  std::optional<Delivery> delivery;
  TimePoint asked_at{};  // the engine's clock before the commit that fetched it
  // The run's last commit was applied with its fetch: `delivery` is what it
  // found, and empty means nothing was due (or the fetch's reply could not be
  // read), so the worker's next try may wait for an enqueue first.
  bool fetched = false;
};

// Adds to an execution's commits what they carry besides its rows: coordination's releases,
// period marks and a snooze's due time (durability/coordination/holding.hpp).
class CommitDecor {
 public:
  virtual ~CommitDecor() = default;
  virtual void decorate(CommitRequest& c, const Run& root, const CheckpointDelta& delta) const = 0;
};

struct Writer {
  DurableEnv& env;
  Lease lease;
  std::optional<std::int64_t> job_id;  // the delivered job, acknowledged at the end
  std::string job_owner;
  NextDelivery* next = nullptr;  // fetch it with the run's last commit
  const CommitDecor* decor = nullptr;
  // The run's deliveries before this one since its last progress, each ended with its worker
  // (Delivery::run_deliveries - 1): a claim's slots count them, as nothing says how far they got.
  std::uint32_t lost_deliveries = 0;

  // A commit fenced by the lease.
  CommitRequest fenced() const;
  // Acknowledges the delivered job and releases the lease with `c`.
  void finish_with(CommitRequest& c) const;
  // Writes what `delta` names of `root`.
  Status checkpoint(const Run& root, const CheckpointDelta& delta) const;
};

// The rows `delta` names, with trace rows from delta.trace_begin on. A run
// created since the last checkpoint brings its inputs and step rows along;
// the root's header always goes (expiry is re-stamped on every write).
void encode_delta(const Run& root, const CheckpointDelta& delta, std::int64_t expires_at_ms,
                  RunRows& out);

}  // namespace reactor
