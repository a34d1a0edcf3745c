// A fan-out map in the driver (docs/maps.md): its elements dispatched as runs of their own, the
// step collected once the map settles, its completed elements rolled back highest index first.
#include "execution/fan_out_map.hpp"

#include <algorithm>

#include "execution/argument_resolver.hpp"
#include "execution/run_driver.hpp"
#include "execution/step_invoker.hpp"
#include "reactor/limits.hpp"
#include "records/codec.hpp"

namespace reactor {

namespace {

// Slots read per request: a large map is read page by page, never all at once.
constexpr std::uint32_t kSlotPage = MapResults::kPageSize;

ElementOutcome outcome_of(const MapSlotRow& slot, std::size_t max_value_bytes) {
  ElementOutcome o;
  o.index = slot.index;
  records::SlotBody body = records::decode_slot_body(slot, max_value_bytes);
  if (body.error) {
    o.error = body.error->message;
  } else {
    o.ok = true;
    o.value = std::move(body.value);
  }
  return o;
}

}  // namespace

std::string FanOutMaps::map_id_of(std::size_t i) const {
  return ex_.origin() + ":" + d_.path_of(i);
}

// Items [first, first + limit) of map `spec`: a slice of its source, or a page of source_pages.
Status FanOutMaps::map_items(const StepSpec& spec, const Launch& l, std::uint32_t first,
                             std::uint32_t limit, Value& out) const {
  out = Value::array();
  if (spec.map_source) {
    for (std::size_t k = first; k < l.items.size() && k < std::size_t{first} + limit; ++k) {
      out.push_back(l.items[k]);
    }
    return Status::Ok();
  }
  auto body = [&](std::stop_token) { return Success(spec.pages(l.args, first, limit)); };
  StepResult page = invoke_user_code(body, std::nullopt, ex_.clock()).result;
  if (!page.ok()) return Status::InvalidArgument("source_pages: " + page.message());
  out = std::move(page).value();
  if (!out.is_array() || out.size() > limit) {
    return Status::InvalidArgument("source_pages of map '" + spec.name + "' returned " +
                                   (out.is_array() ? std::to_string(out.size()) + " items for " +
                                                         std::to_string(limit) + " asked"
                                                   : std::string("no array")));
  }
  return Status::Ok();
}

std::optional<ArgumentError> FanOutMaps::size_of(const std::optional<ArgumentSource>& source,
                                                 const std::string& map, const char* what,
                                                 std::uint32_t& out) const {
  if (!source) return std::nullopt;
  Value size;
  std::optional<ArgumentError> err = resolve_source(*source, run_, def_, size);
  if (err) return err;
  if (!size.is_number_integer() || size.get<std::int64_t>() < 1 ||
      size.get<std::int64_t>() > static_cast<std::int64_t>(kMaxMapElements)) {
    return ArgumentError{"the " + std::string(what) + " of map '" + map + "' is " + size.dump() +
                             ", not an integer from 1 to " + std::to_string(kMaxMapElements),
                         {}};
  }
  out = static_cast<std::uint32_t>(size.get<std::int64_t>());
  return std::nullopt;
}

Attempt FanOutMaps::dispatch_map(std::size_t i, const Launch& l) {
  const StepSpec& spec = def_.steps[i];
  FanOut::Map map;
  map.map_id = map_id_of(i);
  map.parent = &run_;
  map.path = d_.path_of(i);
  map.element = spec.child.get();
  map.atomic = spec.atomic;
  map.batch_size = spec.batch_size;
  map.claim = spec.claim;
  std::optional<ArgumentError> err =
      size_of(spec.batch_size_source, spec.name, "batch size", map.batch_size);
  if (!err) err = size_of(spec.claim_source, spec.name, "claim size", map.claim);
  if (err) return Attempt::unresolved(*err);
  map.inputs = [&](std::uint32_t first, std::uint32_t limit, std::vector<Value>& inputs) {
    Value items;
    if (Status s = map_items(spec, l, first, limit, items); !s.ok()) return s;
    for (std::size_t k = 0; k < items.size(); ++k) {
      Args args;
      if (auto err = resolve_arguments(spec, run_, &items[k], args)) {
        return Status::InvalidArgument("element " + std::to_string(first + k) + ": " +
                                       err->message);
      }
      inputs.push_back(element_inputs(spec, args));
    }
    return Status::Ok();
  };
  std::uint32_t total = 0;
  Status s = ex_.fan_out()->dispatch(map, total);
  Attempt a;
  if (s.code() == StatusCode::kInvalidArgument) return Attempt::unresolved({s.message(), {}});
  if (!s.ok()) {
    Lock lock(ex_.mutex());
    ex_.unwinding().stop(s);
    a.came = Attempt::Came::kCutShort;
    return a;
  }
  if (total == 0) return collect_map(i, MapRow{});  // nothing to wait for
  a.came = Attempt::Came::kDispatched;
  return a;
}

// Records every fan-out map of this run that settled, like any step's outcome. True when one
// was. The caller holds the lock; it is let go around the store and the collect callback.
bool FanOutMaps::collect_settled(Lock& lock) {
  for (const std::size_t i : d_.dispatched_) {
    if (def_.steps[i].kind == StepKind::kAsync) {
      // A unit's one slot is its outcome: read at once, without the map's row.
      lock.unlock();
      std::optional<Attempt> a = d_.units_.collect_unit(i);
      lock.lock();
      if (!a) continue;
      if (a->cut_short() || ex_.unwinding().stopped()) return false;
      d_.dispatched_.erase(i);
      d_.attempts_.record(i, run_.steps[i].attempts, std::move(*a), lock);
      return true;
    }
    MapRow map;
    lock.unlock();
    Status s = ex_.fan_out() != nullptr ? ex_.fan_out()->state(map_id_of(i), map)
                                        : Status::Unavailable("no store to collect a map from");
    lock.lock();
    if (!s.ok()) {
      ex_.unwinding().stop(s);
      return false;
    }
    if (map.state != MapState::kSettled) continue;
    d_.dispatched_.erase(i);
    lock.unlock();
    Attempt a = collect_map(i, map);
    lock.lock();
    if (a.cut_short() || ex_.unwinding().stopped()) return false;
    d_.attempts_.record(i, run_.steps[i].attempts, std::move(a), lock);
    return true;
  }
  return false;
}

// What a settled map comes to, as an inline map would: the first element (by index) that halted
// halts it, or that failed fails an atomic one (its error the run's; the completed elements are
// rolled back as the step is compensated); otherwise its value — collect() over its outcomes,
// read page by page, or their array.
Attempt FanOutMaps::collect_map(std::size_t i, const MapRow& map) {
  try {
    return collect_slots(i, map);
  } catch (const std::exception& e) {  // a slot the store holds that the codec cannot read
    Attempt a;
    Lock lock(ex_.mutex());
    ex_.unwinding().stop(
        Status::Corruption("map " + map.map_id + ": unreadable slot: " + e.what()));
    a.came = Attempt::Came::kCutShort;
    return a;
  }
}

Attempt FanOutMaps::collect_slots(std::size_t i, const MapRow& map) {
  const StepSpec& spec = def_.steps[i];
  Attempt a;
  Value all = Value::array();  // the value without collect()
  for (std::uint32_t first = 0; first < map.total; first += kSlotPage) {
    std::vector<MapSlotRow> page;
    if (Status s = ex_.fan_out()->slots(map.map_id, first, kSlotPage, page); !s.ok()) {
      Lock lock(ex_.mutex());
      ex_.unwinding().stop(s);
      a.came = Attempt::Came::kCutShort;
      return a;
    }
    trace_lost_elements(i, page);
    for (const MapSlotRow& slot : page) {
      if (slot.state == SlotState::kHalted) {
        a.result = Halt(records::decode_slot_body(slot, ex_.max_value_bytes()).value);
        return a;
      }
      const bool failed = slot.state == SlotState::kFailed || slot.state == SlotState::kCancelled;
      if (failed && spec.atomic) {
        RunError e = *records::decode_slot_body(slot, ex_.max_value_bytes()).error;
        if (e.step.empty()) e.step = d_.path_of(i) + "[" + std::to_string(slot.index) + "]";
        a.result = Failure(e.message, false);
        a.child_error = std::move(e);
        return a;
      }
      if (spec.collect) continue;
      all.push_back(element_entry(outcome_of(slot, ex_.max_value_bytes()), spec.atomic));
    }
  }
  if (!spec.collect) {
    a.result = Success(std::move(all));
  } else {
    const MapResults results = outcomes(map, /*completed_only=*/false);
    auto body = [&](std::stop_token) { return Success(spec.collect(results)); };
    a.result = invoke_user_code(body, std::nullopt, ex_.clock()).result;
  }
  d_.attempts_.check_value_limits(spec, a);  // the elements' values together may be past them
  return a;
}

// The outcomes of a settled map's slots — every one, or the completed ones — read page by page
// as the callback iterates. A store that cannot be read fails the callback.
MapResults FanOutMaps::outcomes(const MapRow& map, bool completed_only) {
  return MapResults(
      map.total, [this, completed_only, map_id = map.map_id](std::size_t first, std::size_t limit) {
        std::vector<MapSlotRow> page;
        Status s = ex_.fan_out()->slots(map_id, static_cast<std::uint32_t>(first),
                                        static_cast<std::uint32_t>(limit), page);
        if (!s.ok()) throw std::runtime_error("reading the map's outcomes: " + s.to_string());
        std::vector<ElementOutcome> out;
        for (const MapSlotRow& slot : page) {
          if (!completed_only || slot.state == SlotState::kCompleted)
            out.push_back(outcome_of(slot, ex_.max_value_bytes()));
        }
        return out;
      });
}

// The executions of map i's elements lost with their workers, from the elements' own traces,
// into the owner's ("lost tickets[1]/email"), as its slots are read: only the elements whose
// slot counts one are read. A trace that cannot be read leaves them out; the maps line of
// `reactor show` counts them all the same.
void FanOutMaps::trace_lost_elements(std::size_t i, const std::vector<MapSlotRow>& page) {
  std::vector<TraceEvent> lost;
  for (const MapSlotRow& slot : page) {
    if (slot.interrupted > 0) (void)ex_.fan_out()->lost_executions(map_id_of(i), slot.index, lost);
  }
  if (lost.empty()) return;
  Lock lock(ex_.mutex());
  for (TraceEvent& e : lost) ex_.append_trace(std::move(e));
}

// The run is failing: its fan-out maps release no more elements, and the elements no worker
// has started are filed never run (FanOut::cancel), so that it waits only for those running —
// with no worker at all, for none. (A halting run is not rolled back: its maps run to their
// end.) Once per map and execution. The caller holds the lock; it is let go around the store.
// True when a map was cancelled: look again whether it settled.
bool FanOutMaps::cancel_maps(Lock& lock) {
  if (!d_.failing_ || ex_.fan_out() == nullptr) return false;
  bool any = false;
  for (const std::size_t i : d_.dispatched_) {
    if (def_.steps[i].kind != StepKind::kMap || !d_.cancelled_.insert(i).second) continue;
    lock.unlock();
    Status s = ex_.fan_out()->cancel(map_id_of(i));
    lock.lock();
    if (!s.ok()) {
      ex_.unwinding().stop(s);
      return false;
    }
    any = true;
  }
  return any;
}

// Whether step i's elements ran as runs of their own (and have a map record).
bool FanOutMaps::fanned_out(std::size_t i) {
  if (def_.steps[i].kind != StepKind::kMap || ex_.fan_out() == nullptr) return false;
  MapRow map;
  return ex_.fan_out()->state(map_id_of(i), map).ok();
}

// Rolls back the completed elements of fan-out map i, highest index first (inside an element,
// newest step first), or calls its undo_all over them once. Each element is rolled back under
// its own lease and filed undone, so a rollback cut short by a crash resumes without undoing any
// element twice. The caller holds the lock; it is let go meanwhile.
void FanOutMaps::roll_back_elements(std::size_t i, Lock& lock,
                                    std::vector<RollbackFailure>& failures) {
  const StepSpec& spec = def_.steps[i];
  const std::string map_id = map_id_of(i);
  const std::string path = d_.path_of(i);
  lock.unlock();
  MapRow map;
  Status s = ex_.fan_out()->state(map_id, map);
  if (s.ok() && spec.undo_all) {
    const MapResults completed = outcomes(map, /*completed_only=*/true);
    auto body = [&](std::stop_token stop) {
      StepContext ctx(ex_.origin(), def_.name, path, run_.steps[i].attempts, stop, ex_.clock());
      return spec.undo_all(completed, ctx);
    };
    StepResult r = invoke_user_code(body, std::nullopt, ex_.clock()).result;
    lock.lock();
    if (!r.ok()) {
      failures.push_back(RollbackFailure{path, "undo_all",
                                         r.exception_type().empty() ? "returned_failure" : "raised",
                                         r.message()});
    }
    return;
  }
  for (std::uint32_t end = map.total; s.ok() && end > 0;) {
    const std::uint32_t first = end > kSlotPage ? end - kSlotPage : 0;
    std::vector<MapSlotRow> page;
    s = ex_.fan_out()->slots(map_id, first, end - first, page);
    for (auto it = page.rbegin(); s.ok() && it != page.rend(); ++it) {
      if (it->state != SlotState::kCompleted) continue;
      if (ex_.unwinding().any()) {
        lock.lock();
        return;
      }
      std::vector<TraceEvent> undone;
      s = ex_.fan_out()->roll_back(map, *it, failures, undone);
      lock.lock();
      for (TraceEvent& e : undone) ex_.append_trace(std::move(e));
      lock.unlock();
    }
    end = first;
  }
  lock.lock();
  if (!s.ok()) ex_.unwinding().stop(s);
}

}  // namespace reactor
