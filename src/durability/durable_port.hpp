// DurablePort: an execution's port over the store (execution/execution_port.hpp). Its writes
// are commits fenced by the run's lease, stamped with who executes the run; user code starts
// only while enough of the lease is left; map elements and async units go to the store
// (DurableFanOut); and an attempt an earlier worker lost is known by the fencing token it was
// started under.
#pragma once

#include <atomic>
#include <cstdint>
#include <string>
#include <vector>

#include "durability/coordination/holding.hpp"
#include "durability/durable_fan_out.hpp"
#include "durability/lease_keeper.hpp"
#include "durability/writer.hpp"
#include "execution/execute.hpp"
#include "execution/execution_port.hpp"

namespace reactor {

class DurablePort final : public ExecutionPort {
 public:
  // An execution under `w`'s lease, whose heartbeat is `entry`: once it is lost, writes are
  // refused without asking the store. `fan_out` (may be null: maps run inline) is where its
  // maps and units go.
  DurablePort(const Writer& w, LeaseKeeper::Entry& entry, DurableFanOut* fan_out);

  // Who wrote the run last before this execution (Run::exec_token and exec_worker as read): an
  // execution under another token that wrote nothing since it took the run lost the steps it
  // was about to start.
  void set_previous(std::uint64_t token, std::string worker) {
    previous_ = Executor{std::move(worker), token};
  }
  // While *flag is set (a worker shutting down), stop_requested() says so.
  void set_stop_flag(const std::atomic<bool>* flag) { stop_flag_ = flag; }
  // The execution's coordination (may be null: the reactor declares none): its steps' gates,
  // and a step's snooze leaves the run.
  void set_holding(Holding* holding) { holding_ = holding; }

  Status write(Run& root, const CheckpointDelta& delta) override;
  Status may_start() override;
  FanOut* fan_out() override { return fan_out_; }
  bool stop_requested() const override {
    return (stop_flag_ != nullptr && stop_flag_->load()) ||
           (holding_ != nullptr && holding_->snoozing());
  }
  StepGate enter_step(const StepAsk& ask) override;
  bool gate_waits_for_write() const override {
    return holding_ != nullptr && holding_->releases_pending();
  }
  void step_hung() override { entry_.abandoned = true; }
  std::vector<LostAttempt> lost_attempts(const Run& run, const std::vector<std::size_t>& steps,
                                         AttemptsAre are) override;
  // Held as the lease "correlation:<id>" (durability/correlation.hpp).
  Status hold_correlation(const std::string& correlation_id, const std::string& root_id,
                          const std::string& path, std::int64_t until_ms) override;

 private:
  void stamp(Run& root, const CheckpointDelta& delta) const;
  LostAttempt lost(const StepRecord& rec, std::size_t step, Executor by) const;

  const Writer& w_;
  LeaseKeeper::Entry& entry_;
  DurableFanOut* fan_out_;
  const Executor self_;
  Executor previous_;
  const std::atomic<bool>* stop_flag_ = nullptr;
  Holding* holding_ = nullptr;
};

// The options of an execution through `port`: DurabilityOptions' checkpoint interval and hung
// step grace, and whether a retry's backoff suspends the run (a worker's) and whether what
// delivered the run wrote it as running already.
ExecuteOptions durable_options(const DurabilityOptions& o, DurablePort& port,
                               bool suspend_on_retry_wait, bool start_written = false);

}  // namespace reactor
