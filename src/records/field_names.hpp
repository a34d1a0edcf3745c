// A record's field names in its list's order (records/fields.hpp): what the stores name its
// columns (SQLite) or its script arguments (Redis) by. The list is visited over a default
// record and the values are not read, so a caller gathers the names once and keeps them.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace reactor::records {

class FieldNames {
 public:
  template <typename T>
  void operator()(std::string_view key, const T&) {
    names_.emplace_back(key);
  }
  template <typename T>
  void optional(std::string_view key, const T&) {
    names_.emplace_back(key);
  }
  void raw_json(std::string_view key, const std::string&) { names_.emplace_back(key); }
  std::vector<std::string>& names() { return names_; }

 private:
  std::vector<std::string> names_;
};

// The names `list(record, visitor)` visits, over a default Record.
template <typename Record, typename List>
std::vector<std::string> field_names(const List& list) {
  Record r{};
  FieldNames v;
  list(r, v);
  return std::move(v.names());
}

}  // namespace reactor::records
