#include "execution/argument_resolver.hpp"

#include <charconv>
#include <typeinfo>

#include "execution/step_invoker.hpp"

namespace reactor {
namespace {

const Value kNull = nullptr;

const Value* step_index_child(const Value& v, std::string_view key) {
  if (v.is_object()) {
    auto it = v.find(key);
    return it == v.end() ? nullptr : &*it;
  }
  if (v.is_array()) {
    std::size_t idx = 0;
    auto [p, ec] = std::from_chars(key.data(), key.data() + key.size(), idx);
    if (ec != std::errc() || p != key.data() + key.size() || idx >= v.size()) return nullptr;
    return &v[idx];
  }
  return nullptr;
}

// The value a source names, before path and transform; nullptr with `error`
// set when it does not exist.
const Value* base_value(const ArgumentSource& src, const Run& run, const Value* element,
                        std::string& error, std::size_t hint) {
  switch (src.kind()) {
    case ArgumentSource::Kind::kInput: {
      auto it = run.inputs.find(src.name());
      // An optional input that was not given resolves to null.
      return it == run.inputs.end() ? &kNull : &*it;
    }
    case ArgumentSource::Kind::kResult:
      if (hint < run.steps.size()) return &run.steps[hint].result;
      for (const auto& rec : run.steps) {
        if (rec.name == src.name()) return &rec.result;
      }
      error = "no result of step '" + src.name() + "'";
      return nullptr;
    case ArgumentSource::Kind::kValue:
      return &src.literal();
    case ArgumentSource::Kind::kElement:
      if (element == nullptr) error = "element(\"" + src.name() + "\") used outside its map";
      return element;
  }
  return nullptr;
}

std::string describe(const ArgumentSource& src) {
  switch (src.kind()) {
    case ArgumentSource::Kind::kInput:
      return "input '" + src.name() + "'";
    case ArgumentSource::Kind::kResult:
      return "result of step '" + src.name() + "'";
    case ArgumentSource::Kind::kValue:
      return "value";
    case ArgumentSource::Kind::kElement:
      return "element of map '" + src.name() + "'";
  }
  return "source";
}

// Resolves `src` to either a view (stable for the step's lifetime) or an owned
// value; calls `view` or `own` accordingly. Returns an error message.
template <typename View, typename Own>
std::optional<ArgumentError> resolve_one(const ArgumentSource& src, const Run& run,
                                         const Value* element, View&& view, Own&& own,
                                         std::size_t hint = static_cast<std::size_t>(-1)) {
  std::string error;
  const Value* v = base_value(src, run, element, error, hint);
  if (v == nullptr) return ArgumentError{error, {}};
  if (!src.path().empty()) {
    v = follow_path(*v, src.path());
    if (v == nullptr) {
      return ArgumentError{"path '" + src.path() + "' not found in " + describe(src), {}};
    }
  }
  if (!src.transform_fn()) {
    view(v);
    return std::nullopt;
  }
  try {
    own(src.transform_fn()(*v));
  } catch (const std::exception& e) {
    return ArgumentError{"transform of " + describe(src) + " threw: " + e.what(),
                         demangled_type_name(typeid(e))};
  } catch (...) {
    return ArgumentError{"transform of " + describe(src) + " threw", "unknown"};
  }
  return std::nullopt;
}

}  // namespace

const Value* follow_path(const Value& v, const std::string& path) {
  const Value* at = &v;
  std::string_view rest = path;
  while (at != nullptr && !rest.empty()) {
    auto dot = rest.find('.');
    at = step_index_child(*at, rest.substr(0, dot));
    rest = dot == std::string_view::npos ? std::string_view{} : rest.substr(dot + 1);
  }
  return at;
}

std::optional<ArgumentError> resolve_arguments(const StepSpec& step, const Run& run,
                                               const Value* element, Args& out) {
  if (!step.declares_arguments) {
    // A step without declared arguments receives the reactor's inputs.
    if (run.inputs.is_object()) {
      for (auto it = run.inputs.begin(); it != run.inputs.end(); ++it) {
        out.append_view(it.key(), &it.value());
      }
    }
    return std::nullopt;
  }
  out.reserve(step.arguments.size());
  for (const auto& arg : step.arguments) {
    auto err = resolve_one(
        arg.source, run, element, [&](const Value* v) { out.append_view(arg.name, v); },
        [&](Value v) { out.add_owned(arg.name, std::move(v)); }, arg.result_step);
    if (err) {
      err->message = "argument '" + arg.name + "': " + err->message;
      return err;
    }
  }
  return std::nullopt;
}

std::optional<ArgumentError> resolve_source(const ArgumentSource& source, const Run& run,
                                            const DefinitionData&, Value& out) {
  return resolve_one(
      source, run, nullptr, [&](const Value* v) { out = *v; },
      [&](Value v) { out = std::move(v); });
}

Value element_inputs(const StepSpec& map, const Args& args) {
  Value all = args.to_json();
  if (!map.pages || !map.child) return all;
  Value declared = Value::object();
  for (const InputSpec& in : map.child->inputs) {
    if (auto it = all.find(in.name); it != all.end()) declared[in.name] = std::move(*it);
  }
  return declared;
}

}  // namespace reactor
