#include "reactor/args.hpp"

namespace reactor {

// Steps declare a handful of arguments, so a linear scan beats any index and allocates nothing.
const Value* Args::find(std::string_view name) const {
  for (const Entry& e : entries_) {
    if (e.name == name) return e.view != nullptr ? e.view : owned_[e.owned].get();
  }
  return nullptr;
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
  entries_.push_back(Entry{std::move(name), value, 0});
}

void Args::add_owned(std::string name, Value value) {
  owned_.push_back(std::make_unique<Value>(std::move(value)));
  const std::size_t index = owned_.size() - 1;
  if (Entry* e = entry_named(entries_, name)) {
    e->view = nullptr;
    e->owned = index;
    return;
  }
  entries_.push_back(Entry{std::move(name), nullptr, index});
}

}  // namespace reactor
