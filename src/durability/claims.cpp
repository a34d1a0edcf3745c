#include "durability/claims.hpp"

#include <limits>

#include "base/run_errors.hpp"
#include "base/run_machine.hpp"
#include "durability/durable_fan_out.hpp"
#include "reactor/trace_context.hpp"
#include "records/codec.hpp"
#include "records/run_rows.hpp"
#include "records/run_shape.hpp"

namespace reactor {

namespace {

// A claim run's inputs: whether its map is atomic, and its elements' inputs in index order.
constexpr const char* kAtomic = "atomic";
constexpr const char* kElements = "elements";

// The path of the map step a claim run's path "<map path>[<first>..<last>]" names.
std::string map_path_of(const Run& claim) { return claim.path.substr(0, claim.path.rfind('[')); }

// Element `index` of `claim` as a run of its own would start: the same id, path, inputs and
// trace parent, so its steps see the same idempotency keys.
Run claimed_element(const Run& claim, const ClaimOf& of, std::uint32_t index, Value inputs,
                    const Definition& def) {
  Run e;
  e.id = e.root_id = element_run_id(of.map_id, index);
  e.parent_id = claim.parent_id;
  e.path = map_path_of(claim) + "[" + std::to_string(index) + "]";
  e.element_of = ElementOf{of.map_id, index};
  e.trace_parent = claim.trace_parent;
  e.reactor = def.name();
  e.fingerprint = def.fingerprint();
  e.inputs = std::move(inputs);
  e.steps.resize(def.steps().size());
  for (std::size_t i = 0; i < e.steps.size(); ++i) e.steps[i].name = def.steps()[i].name;
  e.created_at_ms = e.updated_at_ms = claim.updated_at_ms;
  return e;
}

bool has_undo(const Definition& def) {
  for (const StepSpec& s : def.steps()) {
    if (s.undo || s.compensate || s.factory) return true;
  }
  return false;
}

// What element `e`'s undos need, for its slot: its steps' records, a JSON array.
std::string steps_of(const Run& e) {
  std::string out = "[";
  for (const StepRecord& s : e.steps) {
    if (out.size() > 1) out += ',';
    out += records::encode_step(s);
  }
  return out + "]";
}

// The steps steps_of() wrote. Throws for a text that is not theirs.
std::vector<StepRecord> steps_from(const std::string& text) {
  std::vector<StepRecord> steps;
  if (text.empty()) return steps;
  for (const Value& step : records::decode_value(text)) {
    steps.push_back(records::decode_step(step.dump()));
  }
  return steps;
}

// Whether `inputs` are those of claim `of`: its elements' inputs, one each, and its map's atomic.
bool claim_inputs(const Value& inputs, const ClaimOf& of) {
  if (!inputs.is_object() || !inputs.contains(kElements) || !inputs.contains(kAtomic)) {
    return false;
  }
  const Value& elements = inputs[kElements];
  return inputs[kAtomic].is_boolean() && elements.is_array() &&
         elements.size() == std::size_t{of.last} - of.first + 1;
}

// A claim's run is created pending, released enqueued, and filed running by a fetch; it ends
// in the commit that files its slots.
bool claim_runs_from(RunStatus s) {
  return s == RunStatus::kPending || s == RunStatus::kEnqueued || s == RunStatus::kRunning;
}

// The slot of element `e`, which ran to its end in memory.
MapSlotRow slot_of(const Run& e, bool keep_steps) {
  std::optional<MapSettle> settle = settle_of(e);
  if (!settle) {  // cannot happen in memory, where every run ends: say so in its slot
    return MapSlotRow{e.element_of->map_id, e.element_of->index, SlotState::kFailed,
                      records::encode_value(Value(engine_error(ErrorKind::kCorruptRecord, e.reactor,
                                                               "the element did not end")))};
  }
  MapSlotRow slot = std::move(settle->slots.front());
  if (keep_steps && slot.state == SlotState::kCompleted) slot.steps = steps_of(e);
  return slot;
}

// The slot of element `index`, never run: an earlier element of its atomic map failed.
MapSlotRow never_run(const ClaimOf& of, std::uint32_t index, const std::string& reactor,
                     std::uint32_t failed) {
  RunError why = engine_error(ErrorKind::kOwnerEnded, reactor,
                              "element " + std::to_string(failed) +
                                  " of its atomic map failed before it started: nothing ran");
  return MapSlotRow{of.map_id, index, SlotState::kCancelled, records::encode_value(Value(why))};
}

// The claim's run filed completed, and every slot with it, ending its delivery.
Status file_claim(DurableEnv& env, const Writer& w, Run& claim, std::vector<MapSlotRow> slots) {
  if (claim.status == RunStatus::kEnqueued) advance(claim, RunEvent::kDeliver);
  if (claim.status == RunStatus::kPending) advance(claim, RunEvent::kStart);
  advance(claim, RunEvent::kComplete);
  claim.updated_at_ms = env.now_ms();
  claim.exec_token = w.lease.token;
  claim.exec_worker = env.worker_id;
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(claim, 0));  // it lives as long as its owner
  count_lost_deliveries(slots, w.lost_deliveries);
  c.settle = MapSettle{std::move(slots)};
  w.finish_with(c);
  return env.backend.commit(c);
}

}  // namespace

Run claim_run(const FanOut::Map& map, std::uint32_t first, std::vector<Value> inputs,
              std::int64_t now_ms) {
  Run c;
  c.id = c.root_id = claim_run_id(
      ClaimOf{map.map_id, first, first + static_cast<std::uint32_t>(inputs.size()) - 1});
  c.parent_id = map.parent->id;
  c.path = map.path + c.id.substr(c.id.rfind('['));
  const std::string origin = map.map_id.substr(0, map.map_id.find(':'));
  c.trace_parent = child_trace_parent(map.parent->trace_parent, origin, map.parent->path);
  c.reactor = map.element->name;
  c.fingerprint = map.element->fingerprint;
  Value elements = Value::array();
  for (Value& in : inputs) elements.push_back(std::move(in));
  c.inputs = Value{{kAtomic, map.atomic}, {kElements, std::move(elements)}};
  c.created_at_ms = c.updated_at_ms = now_ms;
  return c;
}

ClaimOutcome run_claim(DurableEnv& env, const Definition& def, Run& claim, const ClaimOf& of,
                       const Writer& w, const LeaseKeeper::Entry& lease) {
  if (!claim_inputs(claim.inputs, of) || !claim_runs_from(claim.status)) {
    return {ClaimEnd::kCorrupt,
            Status::Corruption("claim " + claim.id + " (" + to_string(claim.status) +
                               "): its record is not a claim's")};
  }
  const Value& inputs = claim.inputs[kElements];
  const bool atomic = claim.inputs[kAtomic].get<bool>();
  const bool keep_steps = has_undo(def);
  std::vector<MapSlotRow> slots;
  std::optional<std::uint32_t> failed;
  for (std::uint32_t i = of.first; i <= of.last; ++i) {
    if (lease.lost) return {ClaimEnd::kLeaseLost, Status::Ok()};
    if (failed) {
      slots.push_back(never_run(of, i, def.name(), *failed));
      continue;
    }
    Run e = claimed_element(claim, of, i, inputs.at(i - of.first), def);
    env.execute(e, def, ExecuteOptions{}, /*run_is_new=*/true);
    slots.push_back(slot_of(e, keep_steps));
    if (atomic && slots.back().state == SlotState::kFailed) failed = i;
  }
  if (lease.lost) return {ClaimEnd::kLeaseLost, Status::Ok()};
  return {ClaimEnd::kFiled, file_claim(env, w, claim, std::move(slots))};
}

DeliveryOutcome deliver_claim(DurableEnv& env, const Definition& def, Run claim, const ClaimOf& of,
                              const Writer& w, const Delivery& d, const DeliveryOptions& o) {
  auto entry = env.keeper.keep(w.lease, env.options.lease_ttl, o.asked_at);
  file_in_flight(o.in_flight, entry, d, w.job_owner);
  ClaimOutcome out = run_claim(env, def, claim, of, w, *entry);
  file_in_flight(o.in_flight, nullptr, d, w.job_owner);
  env.keeper.drop(entry);
  switch (out.end) {
    case ClaimEnd::kFiled:
      return committed(out.status, DeliveryOutcome::kFinished);
    case ClaimEnd::kLeaseLost:
      return DeliveryOutcome::kLeaseLost;
    case ClaimEnd::kCorrupt:
      break;
  }
  advance(claim, RunEvent::kFailOutright);
  claim.error = engine_error(ErrorKind::kCorruptRecord, claim.reactor, out.status.message());
  claim.updated_at_ms = env.now_ms();
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(claim, 0));
  c.settle = settle_of(claim, w.lost_deliveries);  // every slot failed: its map settles
  w.finish_with(c);
  return committed(env.backend.commit(c), DeliveryOutcome::kFailedRun);
}

Status roll_back_claimed(DurableEnv& env, const MapRow& map, const MapSlotRow& slot,
                         std::vector<RollbackFailure>& failures, std::vector<TraceEvent>& undone,
                         const std::function<Status(const std::string& id, Lease&)>& take) {
  if (slot.state != SlotState::kCompleted) return Status::Ok();  // nothing, or undone before
  const std::string id = claim_run_id(map, slot.index);
  std::optional<Definition> def = env.registry.find(map.element_reactor);
  if (!def) {
    return Status::Unavailable("claimed element " + element_run_id(map.map_id, slot.index) +
                               " cannot be rolled back here: reactor '" + map.element_reactor +
                               "' is not registered");
  }
  Lease lease;
  if (Status s = take(id, lease); !s.ok()) return s;
  Writer w{env, lease, std::nullopt, ""};
  auto let_go = [&](Status s) {
    (void)env.backend.release_lease(lease.key, lease.owner, lease.token);  // else it lapses
    return s;
  };
  Result<StoredRun> stored = env.backend.load_run(id);
  if (!stored.ok()) return let_go(stored.status());
  Run claim;
  if (Status s = records::decode_run(*stored, claim); !s.ok()) return let_go(s);
  std::optional<ClaimOf> of = parse_claim_run_id(id);
  if (!of || !claim_inputs(claim.inputs, *of)) {
    return let_go(Status::Corruption("claim " + id + ": its inputs are not its elements'"));
  }
  Run e = claimed_element(claim, *of, slot.index,
                          claim.inputs[kElements].at(slot.index - of->first), *def);
  try {
    std::vector<StepRecord> steps = steps_from(slot.steps);
    for (std::size_t k = 0; k < steps.size() && k < e.steps.size(); ++k) {
      steps[k].name = e.steps[k].name;
      e.steps[k] = std::move(steps[k]);
    }
  } catch (const std::exception& why) {
    return let_go(Status::Corruption("claimed element " + e.id + ": its steps: " + why.what()));
  }
  e.status = RunStatus::kCompleted;
  ExecuteOutcome out = env.undo(e, *def, ExecuteOptions{}, failures);
  if (out.stopped()) return let_go(out.stop_reason);
  for (TraceEvent& t : e.trace) {
    if (t.type == TraceType::kUndo) undone.push_back(std::move(t));
  }
  MapSlotRow filed = slot;
  filed.state = SlotState::kUndone;
  filed.steps = steps_of(e);  // its steps undone, as a reader of the element sees them
  CommitRequest c = w.fenced();
  c.settle = MapSettle{std::move(filed)};
  w.finish_with(c);
  return env.backend.commit(c);
}

Status find_claimed(RunStore& runs, MapStore& maps, const ElementOf& of, MapRow& map,
                    RunHeaderRow& claim) {
  Result<MapRow> row = maps.load_map(of.map_id);
  if (!row.ok()) return row.status();
  if (row->claim <= 1 || of.index >= row->total) {
    return Status::NotFound(element_run_id(of.map_id, of.index) + " is no claimed element");
  }
  Result<RunHeaderRow> header = runs.load_header(claim_run_id(*row, of.index));
  if (!header.ok()) return header.status();
  map = std::move(row).value();
  claim = std::move(header).value();
  return Status::Ok();
}

void count_lost_deliveries(std::vector<MapSlotRow>& slots, std::uint32_t lost_deliveries) {
  for (MapSlotRow& slot : slots) slot.interrupted += lost_deliveries;
}

std::vector<MapSlotRow> claim_slots(const ClaimOf& of, SlotState state, const std::string& body) {
  std::vector<MapSlotRow> slots;
  for (std::uint32_t i = of.first; i <= of.last; ++i) {
    slots.push_back(MapSlotRow{of.map_id, i, state, body});
  }
  return slots;
}

Status read_claimed_element(Backend& store, const Registry& registry, const ElementOf& of,
                            RunResult& out) {
  MapRow map;
  RunHeaderRow claim;
  if (Status s = find_claimed(store, store, of, map, claim); !s.ok()) return s;
  Result<std::vector<MapSlotRow>> slot = store.load_map_slots(of.map_id, of.index, 1);
  if (!slot.ok()) return slot.status();
  Run e;
  e.id = e.root_id = element_run_id(of.map_id, of.index);
  e.parent_id = claim.parent_id;
  e.element_of = of;
  e.reactor = map.element_reactor;
  e.created_at_ms = e.updated_at_ms = claim.updated_at_ms;
  e.status = claim.status == RunStatus::kCompleted ? RunStatus::kRunning : claim.status;
  if (slot->empty()) {
    out = make_run_result(std::move(e));
    return Status::Ok();
  }
  const MapSlotRow& filed = slot->front();
  try {
    records::SlotBody body =
        records::decode_slot_body(filed, std::numeric_limits<std::size_t>::max());
    e.value = std::move(body.value);
    e.error = std::move(body.error);
    e.steps = steps_from(filed.steps);
  } catch (const std::exception& why) {
    return Status::Corruption("claimed element " + e.id + ": " + why.what());
  }
  if (std::optional<Definition> def = registry.find(e.reactor))
    records::name_steps(e, *def->data());
  switch (filed.state) {
    case SlotState::kCompleted:
    case SlotState::kUndone:
      e.status = RunStatus::kCompleted;
      break;
    case SlotState::kHalted:
      e.status = RunStatus::kHalted;
      break;
    case SlotState::kFailed:
    case SlotState::kCancelled:
      e.status = RunStatus::kFailed;
      break;
  }
  out = make_run_result(std::move(e));
  return Status::Ok();
}

Status cancel_claim(DurableEnv& env, const Writer& owner, const MapRow& map, const ClaimOf& of) {
  const std::string id = claim_run_id(of);
  Result<LeaseGrant> grant = env.backend.acquire_lease(
      run_lease_key(id), owner.lease.owner + "/" + id, env.options.lease_ttl);
  if (!grant.ok()) return grant.status();
  if (!grant->granted) return Status::Ok();  // an execution holds it: it reports when it ends
  Writer w{env, grant->lease, std::nullopt, ""};
  Result<RunHeaderRow> header = env.backend.load_header(id);
  Run claim;
  Status s = header.status();
  try {
    if (s.ok()) claim = records::decode_header(*header);
  } catch (const std::exception& why) {
    s = Status::Corruption("claim " + id + ": " + why.what());
  }
  if (!s.ok() || is_terminal(claim.status) || claim.status == RunStatus::kRunning) {
    (void)env.backend.release_lease(w.lease.key, w.lease.owner, w.lease.token);
    return s;
  }
  advance(claim, RunEvent::kFailOutright);
  claim.error =
      engine_error(ErrorKind::kOwnerEnded, claim.reactor,
                   "its run " + map.owner_id + " was ending before it started: nothing ran");
  claim.updated_at_ms = env.now_ms();
  CommitRequest c = w.fenced();
  c.headers.push_back(records::encode_header(claim, 0));
  c.settle =
      MapSettle{claim_slots(of, SlotState::kCancelled, records::encode_value(Value(*claim.error)))};
  w.finish_with(c);
  return env.backend.commit(c);
}

}  // namespace reactor
