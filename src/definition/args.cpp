#include "reactor/args.hpp"

#include <algorithm>

namespace reactor {

namespace {
// Up to this many arguments a linear scan beats any index and allocates nothing.
constexpr std::size_t kLinearScanMax = 8;
}  // namespace

const Value* Args::find(std::string_view name) const {
  auto value_of = [this](const Entry& e) {
    return e.view != nullptr ? e.view : owned_[e.owned].get();
  };
  if (entries_.size() <= kLinearScanMax) {
    for (const Entry& e : entries_) {
      if (e.name == name) return value_of(e);
    }
    return nullptr;
  }
  if (by_name_.size() != entries_.size()) {
    by_name_.resize(entries_.size());
    for (std::uint32_t i = 0; i < by_name_.size(); ++i) by_name_[i] = i;
    std::sort(by_name_.begin(), by_name_.end(),
              [this](auto a, auto b) { return entries_[a].name < entries_[b].name; });
  }
  auto it = std::lower_bound(by_name_.begin(), by_name_.end(), name,
                             [this](auto i, std::string_view n) { return entries_[i].name < n; });
  if (it == by_name_.end() || entries_[*it].name != name) return nullptr;
  return value_of(entries_[*it]);
}

const Value& Args::operator[](std::string_view name) const {
  const Value* v = find(name);
  if (v == nullptr) throw UndeclaredArgument(std::string(name));
  return *v;
}

Value Args::to_json() const {
  Value out = Value::object();
  for (const Entry& e : entries_) {
    out[e.name] = e.view != nullptr ? *e.view : *owned_[e.owned];
  }
  return out;
}

namespace {

// Re-adding a name replaces the earlier value, so an argument is never listed twice.
template <typename Entries>
auto* entry_named(Entries& entries, const std::string& name) {
  for (auto& e : entries) {
    if (e.name == name) return &e;
  }
  return static_cast<typename Entries::value_type*>(nullptr);
}

}  // namespace

void Args::add_view(std::string name, const Value* value) {
  // A missing view would be a dangling read later; own a null instead.
  if (value == nullptr) {
    add_owned(std::move(name), Value(nullptr));
    return;
  }
  if (Entry* e = entry_named(entries_, name)) {
    e->view = value;
    return;
  }
  by_name_.clear();
  entries_.push_back(Entry{std::move(name), value, 0});
}

void Args::append_view(std::string name, const Value* value) {
  if (value == nullptr) {
    add_owned(std::move(name), Value(nullptr));
    return;
  }
  by_name_.clear();
  entries_.push_back(Entry{std::move(name), value, 0});
}

void Args::clear() {
  entries_.clear();
  owned_.clear();
  by_name_.clear();
}

void Args::add_owned(std::string name, Value value) {
  owned_.push_back(std::make_unique<Value>(std::move(value)));
  const std::size_t index = owned_.size() - 1;
  if (Entry* e = entry_named(entries_, name)) {
    e->view = nullptr;
    e->owned = index;
    return;
  }
  by_name_.clear();
  entries_.push_back(Entry{std::move(name), nullptr, index});
}

}  // namespace reactor
