// GET /api/reactors and /api/reactors/<name>: the registered reactors and each one's definition
// as a graph — its steps, the edges of their dependencies, and a composed child's, a map's or an
// async unit's own reactor nested under its node. Inputs show their redaction, never a default
// of a redacted one.
#include "web/dashboard/api.hpp"
#include "web/shared_json.hpp"

namespace reactor::web {

namespace {

constexpr int kMaxDepth = 8;  // nesting shown; deeper children are named, not drawn

Value graph_of(const DefinitionData& def, int depth) {
  Value nodes = Value::array(), edges = Value::array(), inputs = Value::array();
  for (const InputSpec& in : def.inputs) {
    inputs.push_back({{"name", in.name}, {"redacted", in.schema.is_redacted()}});
  }
  for (const StepSpec& s : def.steps) {
    Value node{{"name", s.name}, {"kind", step_kind_name(s.kind)}, {"fan_out", s.fan_out}};
    if (s.interrupt) {
      Value fields = Value::array();
      for (const InputSpec& f : s.interrupt->payload) fields.push_back(f.name);
      node["payload"] = fields;
    }
    if (s.child) {
      node["child_reactor"] = s.child->name;
      if (depth < kMaxDepth) node["child"] = graph_of(*s.child, depth + 1);
    }
    nodes.push_back(std::move(node));
    for (std::size_t dep : s.dependencies) {
      edges.push_back({{"from", def.steps.at(dep).name}, {"to", s.name}});
    }
  }
  return Value{{"name", def.name}, {"inputs", inputs}, {"nodes", nodes}, {"edges", edges}};
}

}  // namespace

Reply list_reactors(Api& api) {
  Value out = Value::array();
  for (const std::string& name : api.engine.registry().names()) {
    std::optional<Definition> def = api.engine.registry().find(name);
    if (!def) continue;
    out.push_back(
        {{"name", name}, {"steps", def->steps().size()}, {"queue", api.engine.queue_for(name)}});
  }
  return Reply{200, Value{{"reactors", out}}};
}

Reply reactor_graph(Api& api, const std::string& name) {
  std::optional<Definition> def = api.engine.registry().find(name);
  if (!def) return error_reply(404, "no reactor '" + name + "' is registered");
  return Reply{200, graph_of(*def->data(), 0)};
}

}  // namespace reactor::web
