// FanOut: the port through which an execution hands the elements of a fan-out map to workers
// (docs/maps.md). The durable layer implements it over the store
// (durability/durable_fan_out.hpp); an execution without one runs a fan-out map inline,
// as a map without fan_out runs.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "reactor/clock.hpp"
#include "reactor/definition.hpp"
#include "reactor/error.hpp"
#include "reactor/records.hpp"
#include "reactor/run.hpp"
#include "reactor/status.hpp"

namespace reactor {

class FanOut {
 public:
  virtual ~FanOut() = default;

  // A map to dispatch. Its element i is the run element_run_id(map_id, i):
  // a child of `parent` at path "<path>[i]", a run of `element`.
  struct Map {
    std::string map_id;
    const Run* parent = nullptr;
    std::string path;  // of the map step
    const DefinitionData* element = nullptr;
    bool atomic = true;
    std::uint32_t batch_size = 1;
    // Elements a claim holds (StepSpec::claim): more than one, the elements are released as
    // claims, each a run of the element reactor's elements [first, last].
    std::uint32_t claim = 1;
    // No execution dispatched it before (its step was never started under another): the
    // store need not be asked whether the map exists.
    bool fresh = false;
    // The elements' inputs in index order, from `first`, at most `limit`;
    // fewer: the last page. A non-ok status fails the dispatch with it.
    std::function<Status(std::uint32_t first, std::uint32_t limit, std::vector<Value>& inputs)>
        inputs;
  };

  // Creates the map's element runs and its record, and releases its first
  // batch_size elements, in commits fenced by the execution's lease; `total`
  // is then its number of elements. A map dispatched before (an execution that
  // was lost right after) is left as it is and its total returned. Durable
  // when it returns ok.
  virtual Status dispatch(const Map& map, std::uint32_t& total) = 0;
  // Blocks until the map settles or `max_wait` passes (`settled` says which), woken by the
  // store (MapStore::wait_for_settle): how a caller waits for an async unit a step reads.
  virtual Status wait_for_settle(const std::string& map_id, Duration max_wait, bool& settled) = 0;
  // The map's record. NotFound: it was never dispatched (an inline map).
  virtual Status state(const std::string& map_id, MapRow& out) = 0;
  // Its slots among indices [first, first + limit), in index order.
  virtual Status slots(const std::string& map_id, std::uint32_t first, std::uint32_t limit,
                       std::vector<MapSlotRow>& out) = 0;
  // Rolls back the element of `map` (its record as read) whose slot is `slot`, completed — its
  // completed steps, newest first — under its own lease (a claimed element: its claim's), and
  // files its slot undone; the failures of its undos are appended to `failures`, and the trace
  // events of its undos (paths "<map path>[i]/<step>") to `undone`, for the owner's trace, as an
  // inline map's undos are in it. An element rolled back before is left as it is. Durable when
  // it returns ok.
  virtual Status roll_back(const MapRow& map, const MapSlotRow& slot,
                           std::vector<RollbackFailure>& failures,
                           std::vector<TraceEvent>& undone) = 0;
  // The run is failing before map `map_id` settled: files each element that no
  // execution has started (none holds its lease, none of its steps ran) as never run — its run
  // failed owner_ended, its slot cancelled —, the next one to release too, so that the map
  // releases no more and settles once the elements already started report (MapRow::cancelled
  // counts them). Durable when it returns ok; a map settled already is left as it is.
  virtual Status cancel(const std::string& map_id) = 0;
  // How the readers of an async unit wait for it: a caller blocks, woken by the store, at most
  // `block_for` since it began waiting; without it the run is suspended (parked) and its
  // readers give up `park_for` after the unit's dispatch.
  struct UnitWait {
    std::optional<Duration> block_for;
    Duration park_for = std::chrono::hours(1);
  };
  // Asked only when a reader is about to wait: the first call may read the store.
  virtual UnitWait unit_wait() const = 0;
  // The executions of element `index`'s steps lost with their workers, as its own trace has
  // them (paths "<map path>[i]/<step>"), appended to `lost` for the owner's trace.
  virtual Status lost_executions(const std::string& map_id, std::uint32_t index,
                                 std::vector<TraceEvent>& lost) = 0;
};

}  // namespace reactor
