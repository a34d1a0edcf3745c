// A record's field list (records/fields.hpp) as SQLite columns: the column
// names in list order, the values bound to a statement's parameters in that
// order, and read back from a row's columns. Each table's columns are named
// as its record's fields, so a field added to a record is one migration and
// no edit here.
#pragma once

#include <string>
#include <string_view>
#include <type_traits>

#include "records/field_names.hpp"
#include "records/names.hpp"
#include "storage/sqlite/connection.hpp"

namespace reactor::sqlite {

class FieldBinder {
 public:
  FieldBinder(Statement& st, int first) : st_(st), index_(first - 1) {}
  template <typename T>
  void operator()(std::string_view, const T& value) {
    if constexpr (std::is_enum_v<T>) {
      st_.bind_at(++index_, std::string_view(to_string(value)));
    } else {
      st_.bind_at(++index_, value);
    }
  }
  template <typename T>
  void optional(std::string_view key, const T& value) {
    (*this)(key, value);
  }
  void raw_json(std::string_view key, const std::string& json) { (*this)(key, json); }
  int next() const { return index_ + 1; }

 private:
  Statement& st_;
  int index_;
};

// Throws std::invalid_argument for an enum name this build does not know.
class FieldColumns {
 public:
  FieldColumns(const Statement& st, int first) : st_(st), col_(first) {}
  template <typename T>
  void operator()(std::string_view, T& out) {
    if constexpr (std::is_same_v<T, std::string>) {
      out = st_.text(col_++);
    } else if constexpr (std::is_enum_v<T>) {
      records::from_name(st_.text(col_++), out);
    } else {
      out = static_cast<T>(st_.int64(col_++));
    }
  }
  template <typename T>
  void optional(std::string_view key, T& out) {
    (*this)(key, out);
  }
  void raw_json(std::string_view key, std::string& out) { (*this)(key, out); }

 private:
  const Statement& st_;
  int col_;
};

// Passes every field to `V` but those `skip` names: the columns one statement leaves alone.
template <typename V>
class Without {
 public:
  Without(V& inner, bool (*skip)(std::string_view)) : inner_(inner), skip_(skip) {}
  template <typename T>
  void operator()(std::string_view key, T& value) {
    if (!skip_(key)) inner_(key, value);
  }
  template <typename T>
  void optional(std::string_view key, T& value) {
    if (!skip_(key)) inner_.optional(key, value);
  }
  template <typename S>
  void raw_json(std::string_view key, S& text) {
    if (!skip_(key)) inner_.raw_json(key, text);
  }

 private:
  V& inner_;
  bool (*skip_)(std::string_view);
};

// The column names of `list` (a field list over Record), "a, b, c".
template <typename Record, typename List>
std::string columns_of(List list) {
  std::string out;
  for (const std::string& name : records::field_names<Record>(list)) {
    out += (out.empty() ? "" : ", ") + name;
  }
  return out;
}

}  // namespace reactor::sqlite
