// DurableFanOut: the elements of an execution's fan-out maps as runs of their
// own in the store (docs/maps.md). The owner creates them in commits fenced
// by its lease — all of them `pending`, the first batch_size `enqueued` with
// their jobs in the commit that writes the map's record — and the store
// releases the rest as elements report (MapSettle). A settled map enqueues
// its owner's resume; the owner collects it from its slots, and rolls back
// its completed elements, each under the element's own lease.
#pragma once

#include <functional>
#include <mutex>
#include <optional>

#include "durability/durable_env.hpp"
#include "durability/writer.hpp"
#include "execution/fan_out_port.hpp"

namespace reactor {

class DurableFanOut final : public FanOut {
 public:
  // For the execution of root run `root` under `owner` (its lease).
  DurableFanOut(DurableEnv& env, const Writer& owner, const Run& root);

  Status dispatch(const Map& map, std::uint32_t& total) override;
  Status wait_for_settle(const std::string& map_id, Duration max_wait, bool& settled) override;
  Status state(const std::string& map_id, MapRow& out) override;
  Status slots(const std::string& map_id, std::uint32_t first, std::uint32_t limit,
               std::vector<MapSlotRow>& out) override;
  Status roll_back(const MapRow& map, const MapSlotRow& slot,
                   std::vector<RollbackFailure>& failures,
                   std::vector<TraceEvent>& undone) override;
  Status cancel(const std::string& map_id) override;
  Status lost_executions(const std::string& map_id, std::uint32_t index,
                         std::vector<TraceEvent>& lost) override;
  UnitWait unit_wait() const override;
  // How the readers of its async units wait (FanOut::UnitWait): by default the run parks,
  // DurabilityOptions::async_park_timeout at most. `decide` says it when first asked, once: a
  // caller's decision reads the store (whether a worker serves the unit's queue), a request a
  // run that never waits for a unit does not make.
  void set_unit_wait(std::function<UnitWait()> decide) { decide_unit_wait_ = std::move(decide); }
  // A slot its delivery brought (Delivery::settled_slot): the first read of that one slot is
  // served from it, without a request; any later read asks the store.
  void set_delivered_slot(std::optional<MapSlotRow> slot) { delivered_slot_ = std::move(slot); }

 private:
  Run element_run(const Map& map, std::uint32_t index, Value inputs) const;
  void add_runs(const Map& map, std::vector<Value> inputs, std::uint32_t& total,
                std::vector<Run>& window, std::uint32_t& released, CommitRequest& c) const;
  Status take_element(const std::string& id, Lease& lease);
  Status load_element(const std::string& id, Run& run, std::optional<Definition>& def);
  Status cancel_element(const std::string& map_id, std::uint32_t index);

  DurableEnv& env_;
  const Writer& owner_;
  const std::string owner_id_;
  const std::string owner_reactor_;
  std::function<UnitWait()> decide_unit_wait_;
  mutable std::once_flag unit_wait_decided_;
  mutable UnitWait unit_wait_;
  std::optional<MapSlotRow> delivered_slot_;
};

// Whether an execution of `run` got as far as starting a step (or past it): a run that did not
// has had no side effect, since a step is marked started in a commit before its body runs.
bool any_step_executed(const Run& run);

// The slot a terminal element run fills (its value, its error or its Halt
// reason); nothing for a run that is no map's element or not terminal. A claim's run that ended
// without running its elements fills each of its slots failed, each counting the claim's
// `lost_deliveries` in its `interrupted` (count_lost_deliveries).
std::optional<MapSettle> settle_of(const Run& run, std::uint32_t lost_deliveries = 0);

}  // namespace reactor
