// Schedules on SQLite (reactor/schedule_store.hpp): the `schedules` table, its columns
// ScheduleRow's fields (records/fields.hpp).
#include "storage/sqlite/backend.hpp"
#include "storage/sqlite/row_fields.hpp"
#include "storage/sqlite/rows.hpp"
#include "storage/sqlite/transact.hpp"

namespace reactor {

using sqlite::Connection;
using sqlite::kScheduleFields;
using sqlite::Statement;

namespace {

const std::string& schedule_columns() {
  static const std::string columns = sqlite::columns_of<ScheduleRow>(kScheduleFields);
  return columns;
}

// An update replaces every column but the name and what the workers fired.
bool kept_on_update(std::string_view col) { return col == "name" || col == "last_fired_ms"; }

}  // namespace

Status SqliteBackend::upsert_schedule(const ScheduleRow& row) {
  static const std::string sql = [] {
    std::string set;
    for (const std::string& col : records::field_names<ScheduleRow>(kScheduleFields)) {
      if (!kept_on_update(col)) set += (set.empty() ? "" : ", ") + col + " = excluded." + col;
    }
    const std::string& list = schedule_columns();
    return "INSERT INTO schedules(" + list + ") VALUES (" +
           sqlite::parameters(sqlite::count_columns(list)) + ") ON CONFLICT(name) DO UPDATE SET " +
           set;
  }();
  return transact(Mode::kWrite, "upsert_schedule", [&](Connection& db) -> Status {
    Statement st = db.prepare(sql);
    sqlite::FieldBinder bind(st, 1);
    kScheduleFields(row, bind);
    st.run();
    return Status::Ok();
  });
}

Result<std::vector<ScheduleRow>> SqliteBackend::list_schedules() {
  std::vector<ScheduleRow> out;
  Status s = transact(Mode::kRead, "list_schedules", [&](Connection& db) -> Status {
    out.clear();
    Statement st = db.prepare("SELECT " + schedule_columns() + " FROM schedules ORDER BY name");
    while (st.step()) {
      ScheduleRow row;
      try {
        sqlite::FieldColumns columns(st, 0);
        kScheduleFields(row, columns);
      } catch (const std::invalid_argument& e) {
        return Status::Corruption("schedule " + row.name + ": " + e.what());
      }
      out.push_back(std::move(row));
    }
    return Status::Ok();
  });
  if (!s.ok()) return s;
  return out;
}

Status SqliteBackend::mark_schedule_fired(const std::string& name, std::int64_t period_ms) {
  return transact(Mode::kWrite, "mark_schedule_fired", [&](Connection& db) -> Status {
    Statement st = db.prepare(
        "UPDATE schedules SET last_fired_ms = max(last_fired_ms, ?) WHERE name = ? "
        "RETURNING last_fired_ms");
    st.bind(period_ms, name);
    if (!st.step()) return Status::NotFound("schedule '" + name + "' not found");
    return Status::Ok();
  });
}

}  // namespace reactor
