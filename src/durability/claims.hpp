// Claims (docs/maps.md, "Claims"): the elements of a fan-out map with claim_batch(n) released n
// at a time, each claim one run of the element reactor, "<map id>[<first>..<last>]". Its
// delivery runs the claim's elements one after another in memory (no element is a run of the
// store) and files all their slots with the one commit that ends the claim; the store then
// releases the next claims (MapSettle). The owner rolls a claimed element back from what its
// slot keeps (MapSlotRow::steps) under the claim's lease, and cancels a claim not yet started
// whole.
#pragma once

#include <cstdint>
#include <vector>

#include "durability/delivery.hpp"
#include "durability/durable_env.hpp"
#include "durability/lease_keeper.hpp"
#include "durability/writer.hpp"
#include "execution/fan_out_port.hpp"
#include "reactor/run_result.hpp"

namespace reactor {

// The run that carries the elements [first, first + inputs.size()) of `map`, `pending`: a root
// of its own whose parent is the map's run, its inputs those elements' inputs.
Run claim_run(const FanOut::Map& map, std::uint32_t first, std::vector<Value> inputs,
              std::int64_t now_ms);

// How a claim's delivery ended.
enum class ClaimEnd {
  kFiled,      // every element ran: the claim's commit filed their slots (its status says if ok)
  kLeaseLost,  // its lease was lost or let go: nothing was filed, the claim runs again whole
  kCorrupt,    // its inputs are not a claim's: nothing ran (status says why)
};
struct ClaimOutcome {
  ClaimEnd end = ClaimEnd::kFiled;
  Status status;  // of the commit (kFiled), what is wrong (kCorrupt)
};

// Runs the elements of `claim` (delivered under `w`, its lease kept in `lease`) on `def`, and
// files them with the commit that ends it. An element of an atomic map that fails leaves the
// rest of its claim unrun, filed cancelled (the map is failing: they would never start).
// A graceful stop of the worker does not cut a claim short: the claim is its elements' unit of
// commit, as a step is a run's, so it runs to its end and is filed (Worker::stop); a stop that
// will not wait (stop_now, shutdown_timeout) lets its lease go, and it ends between two elements.
ClaimOutcome run_claim(DurableEnv& env, const Definition& def, Run& claim, const ClaimOf& of,
                       const Writer& w, const LeaseKeeper::Entry& lease);

// The delivery of claim `of`'s run `claim` under `w`: its elements run (run_claim), then its
// outcome as a delivery's. A claim whose inputs cannot be read fails, each slot failed with it.
DeliveryOutcome deliver_claim(DurableEnv& env, const Definition& def, Run claim, const ClaimOf& of,
                              const Writer& w, const Delivery& d, const DeliveryOptions& o);

// The element of claim map `map` whose slot is `slot`, rolled back by its owner
// (FanOut::roll_back): its completed steps undone newest first, in memory, from its slot, then its
// slot filed undone, fenced by the claim's lease, which `take` gets. An element not completed is
// left as it is.
Status roll_back_claimed(DurableEnv& env, const MapRow& map, const MapSlotRow& slot,
                         std::vector<RollbackFailure>& failures, std::vector<TraceEvent>& undone,
                         const std::function<Status(const std::string& id, Lease&)>& take);

// The record of claimed element `of`'s map, and the header of its claim's run. NotFound when `of`
// names no element of a claimed map.
Status find_claimed(RunStore& runs, MapStore& maps, const ElementOf& of, MapRow& map,
                    RunHeaderRow& claim);

// Each of a claim's `slots` counts the claim's deliveries lost before the one filing them
// (Writer::lost_deliveries) as lost executions of its element: each may have run it; nothing
// says how far it got (docs/maps.md, "Claims").
void count_lost_deliveries(std::vector<MapSlotRow>& slots, std::uint32_t lost_deliveries);

// The slots of elements [of.first, of.last], each in `state` with `body`: a claim filed whole.
std::vector<MapSlotRow> claim_slots(const ClaimOf& of, SlotState state, const std::string& body);

// Element `of` of a claimed map, which has no run of its own, as a run would read: its slot's
// outcome once its claim reported (a cancelled one failed, an undone one completed with its
// steps undone), else its claim's run's status. NotFound when `of` is no claimed element.
Status read_claimed_element(Backend& store, const Registry& registry, const ElementOf& of,
                            RunResult& out);

// Claim `of` of `map`, filed never run (FanOut::cancel) when no execution holds it and none
// started it: its run failed owner_ended, every slot of it cancelled.
Status cancel_claim(DurableEnv& env, const Writer& owner, const MapRow& map, const ClaimOf& of);

}  // namespace reactor
