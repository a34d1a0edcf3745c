// FanOutMaps: a fan-out map's elements as runs of their own (docs/maps.md) — dispatched
// through the port's FanOut, collected from their slots once the map settles, cancelled when
// the run fails, rolled back element by element.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "execution/attempt.hpp"
#include "execution/execution.hpp"
#include "reactor/map_results.hpp"
#include "reactor/records.hpp"

namespace reactor {

// The fan-out maps of `driver`'s run.
class FanOutMaps : public DriverPart {
 public:
  using DriverPart::DriverPart;

  std::string map_id_of(std::size_t i) const;
  // The items of map step `spec` from `first`, at most `limit` (its source, or a page of
  // source_pages()).
  Status map_items(const StepSpec& spec, const Launch& l, std::uint32_t first, std::uint32_t limit,
                   Value& out) const;
  Attempt dispatch_map(std::size_t i, const Launch& l);
  bool collect_settled(Lock& lock);
  MapResults outcomes(const MapRow& map, bool completed_only);
  bool fanned_out(std::size_t i);
  bool cancel_maps(Lock& lock);
  void roll_back_elements(std::size_t i, Lock& lock, std::vector<RollbackFailure>& failures);

 private:
  // A size of map `map` read from `source` when it starts (fan_out's batch, claim_batch's):
  // `out` left as it is without a source; an error unless an integer from 1 to kMaxMapElements.
  std::optional<ArgumentError> size_of(const std::optional<ArgumentSource>& source,
                                       const std::string& map, const char* what,
                                       std::uint32_t& out) const;
  Attempt collect_map(std::size_t i, const MapRow& map);
  Attempt collect_slots(std::size_t i, const MapRow& map);
  void trace_lost_elements(std::size_t i, const std::vector<MapSlotRow>& page);
};

}  // namespace reactor
