// Fan-out maps on SQLite (docs/maps.md): the `maps` and `map_slots` tables, written by a commit
// (rows upserted by their owner; a settle applied with the rules of storage/map_settle.hpp) and
// read back page by page.
#include <algorithm>
#include <map>
#include <optional>

#include "storage/map_settle.hpp"
#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/row_fields.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"
#include "storage/sqlite/wake.hpp"
#include "storage/storage_time.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::kMapFields;
using sqlite::Statement;

namespace {

const std::string& map_columns() {
  static const std::string columns = sqlite::columns_of<MapRow>(kMapFields);
  return columns;
}

void upsert_map(Connection& db, const MapRow& m) {
  static const std::string sql = [] {
    std::string set;
    const std::string& list = map_columns();
    for (std::size_t at = 0; at < list.size();) {
      std::size_t end = list.find(", ", at);
      if (end == std::string::npos) end = list.size();
      const std::string col = list.substr(at, end - at);
      if (col != "map_id") set += (set.empty() ? "" : ", ") + col + " = excluded." + col;
      at = end + 2;
    }
    return "INSERT INTO maps(" + list + ") VALUES (" +
           sqlite::parameters(sqlite::count_columns(list)) +
           ") ON CONFLICT(map_id) DO UPDATE SET " + set;
  }();
  Statement st = db.prepare(sql);
  sqlite::FieldBinder bind(st, 1);
  kMapFields(m, bind);
  st.run();
}

// Reads the map row `st` stands on. Corruption for a state this build does not know.
Status read_map(const Statement& st, MapRow& out) {
  try {
    sqlite::FieldColumns columns(st, 0);
    kMapFields(out, columns);
  } catch (const std::invalid_argument& e) {
    return Status::Corruption("map " + out.map_id + ": " + e.what());
  }
  return Status::Ok();
}

bool find_map(Connection& db, const std::string& map_id, MapRow& out, Status& why) {
  Statement st = db.prepare("SELECT " + map_columns() + " FROM maps WHERE map_id = ?");
  st.bind(map_id);
  if (!st.step()) return false;
  why = read_map(st, out);
  return why.ok();
}

void enqueue(Connection& db, const JobSpec& j) {
  db.prepare(
        "INSERT INTO jobs(queue, kind, run_id, reactor, run_at, snoozes) VALUES (?, ?, ?, ?, ?, ?)")
      .bind(j.queue, std::string(to_string(j.kind)), j.run_id, j.reactor, j.run_at_ms, j.snoozes)
      .run();
}

// Writes `slot`: an element's slot written again overwrites it.
void write_slot(Connection& db, const MapSlotRow& slot) {
  db.prepare(
        "INSERT INTO map_slots(map_id, idx, state, body, interrupted, steps) "
        "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(map_id, idx) DO UPDATE SET state = excluded.state, "
        "body = excluded.body, interrupted = excluded.interrupted, steps = excluded.steps")
      .bind(slot.map_id, slot.index, std::string(to_string(slot.state)), slot.body,
            slot.interrupted, slot.steps)
      .run();
}

// Writes `slots` (of `map`; a slot written again overwrites it) and counts each in `map`, the
// states of those already there read with one query, as the Redis script does.
void write_slots(Connection& db, MapRow& map, const std::vector<MapSlotRow>& slots) {
  std::uint32_t lo = slots.front().index, hi = lo;
  for (const MapSlotRow& slot : slots) {
    lo = std::min(lo, slot.index);
    hi = std::max(hi, slot.index);
  }
  std::map<std::uint32_t, SlotState> states;
  {
    Statement st =
        db.prepare("SELECT idx, state FROM map_slots WHERE map_id = ? AND idx >= ? AND idx <= ?");
    st.bind(map.map_id, lo, hi);
    while (st.step()) {
      states[static_cast<std::uint32_t>(st.int64(0))] = slot_state_from_string(st.text(1));
    }
  }
  for (const MapSlotRow& slot : slots) {
    std::optional<SlotState> before;
    if (auto it = states.find(slot.index); it != states.end()) before = it->second;
    write_slot(db, slot);
    storage::count_slot(map, before, slot);
    states[slot.index] = slot.state;  // an index twice in one settle: the second sees the first
  }
}

}  // namespace

Status SqliteBackend::write_maps(Connection& db, const CommitRequest& c, std::int64_t now,
                                 bool& wakes) {
  for (const MapRow& m : c.maps) upsert_map(db, m);
  if (!c.settle || c.settle->slots.empty()) return Status::Ok();
  MapRow map;
  Status why;
  if (!find_map(db, c.settle->slots.front().map_id, map, why)) {
    return why;  // purged with its owner: nobody waits
  }
  write_slots(db, map, c.settle->slots);
  const storage::SettleOutcome out = storage::release_and_settle(map);
  upsert_map(db, map);
  for (std::uint32_t first : out.releases) {
    const std::string id = claim_run_id(map, first);
    db.prepare("UPDATE runs SET status = 'enqueued', updated_at = ? WHERE id = ?")
        .bind(now, id)
        .run();
    enqueue(db, JobSpec{map.queue, JobKind::kStart, id, map.element_reactor, now, 0});
  }
  if (!out.releases.empty() || out.settled) wakes = true;
  if (out.settled) {
    enqueue(db, JobSpec{map.queue, JobKind::kResume, map.owner_id, map.owner_reactor, now, 0});
    db.prepare("UPDATE runs SET wake_at = ? WHERE id = ? AND status = 'waiting'")
        .bind(now, map.owner_id)
        .run();
  }
  return Status::Ok();
}

Result<MapRow> SqliteBackend::load_map(const std::string& map_id) {
  MapRow out;
  Status s = transact(Mode::kRead, "load_map", [&](Connection& db) -> Status {
    Status why;
    if (!find_map(db, map_id, out, why)) {
      return why.ok() ? Status::NotFound("map " + map_id + " not found") : why;
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Result<bool> SqliteBackend::wait_for_settle(const std::string& map_id, Duration max_wait) {
  // Armed before the first read: a settle that read misses touches the file after the watch
  // exists, so its event is never lost.
  sqlite::WakeWatch watch;
  if (Status s = watch.arm(wake_path_); !s.ok()) return s;
  return storage::wait_until_settled(
      [&] { return load_map(map_id); },
      [&](std::chrono::steady_clock::time_point deadline) { return watch.wait_until(deadline); },
      storage::wait_deadline(max_wait));
}

Result<std::vector<MapSlotRow>> SqliteBackend::load_map_slots(const std::string& map_id,
                                                              std::uint32_t first,
                                                              std::uint32_t limit) {
  std::vector<MapSlotRow> slots;
  Status s = transact(Mode::kRead, "load_map_slots", [&](Connection& db) -> Status {
    slots.clear();
    Statement st = db.prepare(
        "SELECT idx, state, body, interrupted, steps FROM map_slots WHERE map_id = ? AND idx >= ? "
        "AND idx < ? ORDER BY idx");
    st.bind(map_id, first, static_cast<std::int64_t>(first) + limit);
    while (st.step()) {
      MapSlotRow slot;
      slot.map_id = map_id;
      slot.index = static_cast<std::uint32_t>(st.int64(0));
      try {
        slot.state = slot_state_from_string(st.text(1));
      } catch (const std::invalid_argument& e) {
        return Status::Corruption("map " + map_id + ": slot " + std::to_string(slot.index) + ": " +
                                  e.what());
      }
      slot.body = st.text(2);
      slot.interrupted = static_cast<std::uint32_t>(st.int64(3));
      slot.steps = st.text(4);
      slots.push_back(std::move(slot));
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return slots;
}

}  // namespace reactor
