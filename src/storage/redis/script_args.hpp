// How the Redis scripts take records in their arguments: written through each record's field
// list (src/records/fields.hpp), so that what C++ sends and what a script reads come from one
// list, and cannot drift. A *section* of the arguments is
//
//   n, k, the k field names in the list's order, then n rows of k values (k = 0 when n = 0)
//
// and a script reads a row as a table of field name -> value (scripts/includes/sections.lua),
// naming the fields it uses as the list spells them: a field added to a record is one line in
// its list, and a script that reads it names it.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>
#include <vector>

#include "reactor/hold_store.hpp"
#include "reactor/records.hpp"
#include "records/codec.hpp"
#include "records/field_names.hpp"
#include "records/fields.hpp"

namespace reactor::redis {

// A record's fields as script arguments: text as it is (a raw JSON member too), numbers in
// decimal, booleans as 1 and 0, enums by name.
class ArgsWriter {
 public:
  explicit ArgsWriter(std::vector<std::string>& args) : args_(args) {}
  template <typename T>
  void operator()(std::string_view, const T& value) {
    if constexpr (std::is_same_v<T, std::string>) {
      args_.push_back(value);
    } else if constexpr (std::is_same_v<T, bool>) {
      args_.emplace_back(value ? "1" : "0");
    } else if constexpr (std::is_enum_v<T>) {
      args_.emplace_back(to_string(value));
    } else {
      args_.push_back(std::to_string(value));
    }
  }
  template <typename T>
  void optional(std::string_view key, const T& value) {
    (*this)(key, value);
  }
  void raw_json(std::string_view key, const std::string& json) { (*this)(key, json); }

 private:
  std::vector<std::string>& args_;
};

// A visitor `V` that leaves out one member, by name.
template <typename V>
class WithoutMember {
 public:
  WithoutMember(V& v, std::string_view left_out) : v_(v), left_out_(left_out) {}
  template <typename T>
  void operator()(std::string_view key, const T& value) {
    if (key != left_out_) v_(key, value);
  }
  template <typename T>
  void optional(std::string_view key, const T& value) {
    if (key != left_out_) v_.optional(key, value);
  }
  void raw_json(std::string_view key, const std::string& json) {
    if (key != left_out_) v_.raw_json(key, json);
  }

 private:
  V& v_;
  std::string_view left_out_;
};

// A visitor `V` that leaves out the raw JSON members (a record's body, sent inside its whole
// record instead).
template <typename V>
class WithoutRawJson {
 public:
  explicit WithoutRawJson(V& v) : v_(v) {}
  template <typename T>
  void operator()(std::string_view key, const T& value) {
    v_(key, value);
  }
  template <typename T>
  void optional(std::string_view key, const T& value) {
    v_.optional(key, value);
  }
  void raw_json(std::string_view, const std::string&) {}

 private:
  V& v_;
};

// Appends `rows` as one section, each written by `list(row, visitor)`. The names are the list's,
// the same on every call: gathered once. An empty section names no fields (k = 0): a script
// reads none of them.
template <typename Row, typename List>
void append_section(const std::vector<Row>& rows, const List& list,
                    std::vector<std::string>& args) {
  static const std::vector<std::string> names = records::field_names<Row>(list);
  args.push_back(std::to_string(rows.size()));
  if (rows.empty()) {
    args.emplace_back("0");
    return;
  }
  args.push_back(std::to_string(names.size()));
  args.insert(args.end(), names.begin(), names.end());
  ArgsWriter values(args);
  for (const Row& row : rows) list(row, values);
}

// The field list of a record that has one (records::fields), for append_section.
inline constexpr auto kRecordFields = [](const auto& row, auto& v) { records::fields(row, v); };

// A run header as the commit scripts take it: the columns a store files it by
// (records::header_row_fields without its body), whether its status is terminal, and `record`,
// the header record as stored (its body inside).
inline constexpr auto kHeaderArgs = [](const RunHeaderRow& h, auto& v) {
  WithoutRawJson columns(v);
  records::header_row_fields(h, columns);
  v("terminal", is_terminal(h.status));
  v("record", records::encode_header_record(h));
};

// The slot a settle fills, as the commit script takes it: MapSlotRow's fields without its body,
// and `record`, the slot record as stored (its body inside).
inline constexpr auto kSlotArgs = [](const MapSlotRow& slot, auto& v) {
  WithoutRawJson without_body(v);
  WithoutMember columns(without_body, "steps");  // a claimed element's steps: in the record only
  records::fields(slot, columns);
  v("record", records::encode_slot_record(slot));
};

// What a commit does to coordination (hold_store.hpp), as the commit script takes it
// (includes/hold_commit.lua): these records have no field list of their own in the stored
// formats, since only this script's arguments carry them.
inline constexpr auto kReleaseArgs = [](const HoldRelease& r, auto& v) {
  v("holder", r.holder);
  v("claim", r.claim);
};
inline constexpr auto kPeriodMarkArgs = [](const PeriodMark& m, auto& v) {
  v("mark", m.mark);
  v("run_id", m.run_id);
};
inline constexpr auto kOrderedJoinArgs = [](const OrderedJoin& j, auto& v) {
  v("key", j.key);
  v("run_id", j.run_id);
};

}  // namespace reactor::redis
