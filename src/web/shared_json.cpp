#include "web/shared_json.hpp"

namespace reactor::web {

const char* step_kind_name(StepKind kind) {
  switch (kind) {
    case StepKind::kStep:
      return "step";
    case StepKind::kCompose:
      return "compose";
    case StepKind::kMap:
      return "map";
    case StepKind::kAsync:
      return "async";
    case StepKind::kInterrupt:
      return "interrupt";
  }
  return "step";
}

Value map_progress_json(const MapProgress& m) {
  return Value{{"map_id", m.map_id},
               {"step", m.step},
               {"state", to_string(m.state)},
               {"total", m.total},
               {"done", m.done},
               {"failed", m.failed},
               {"in_flight", m.in_flight()},
               {"rolled_back", m.undone},
               {"released", m.released},
               {"batch_size", m.batch_size},
               {"atomic", m.atomic},
               {"owner_id", m.owner_id},
               {"interrupted", m.interrupted},
               {"cancelled", m.cancelled}};
}

}  // namespace reactor::web
