#include "definition/graph_check.hpp"

#include <algorithm>
#include <map>
#include <set>
#include <string>

#include "definition/fingerprint.hpp"
#include "reactor/limits.hpp"

namespace reactor {
namespace {

// Levels of runs a run of `d` holds: 1, plus its deepest composed child's or map element's.
// Each child was checked when it was built, so this recursion is at most kMaxRunNesting deep.
int nesting_of(const DefinitionData& d) {
  int deepest = 0;
  for (const auto& s : d.steps) {
    if (s.kind != StepKind::kStep && s.child) deepest = std::max(deepest, nesting_of(*s.child));
  }
  return 1 + deepest;
}

class Checker {
 public:
  explicit Checker(DefinitionData& d) : d_(d) {}

  [[noreturn]] void fail(const std::string& what) const {
    throw DefinitionError("reactor '" + d_.name + "': " + what);
  }
  [[noreturn]] void fail_step(const StepSpec& s, const std::string& what) const {
    fail("step '" + s.name + "': " + what);
  }

  void check_names() {
    if (d_.name.empty()) throw DefinitionError("a reactor needs a non-empty name");
    if (d_.max_concurrency < 1) fail("max_concurrency must be at least 1");
    // The limits of reactor/limits.hpp: a stored run past them is corrupt.
    if (d_.steps.size() > kMaxRunSteps) {
      fail("has " + std::to_string(d_.steps.size()) + " steps, more than " +
           std::to_string(kMaxRunSteps));
    }
    if (nesting_of(d_) > kMaxRunNesting) {
      fail("composes runs " + std::to_string(nesting_of(d_)) + " levels deep, more than " +
           std::to_string(kMaxRunNesting));
    }
    std::set<std::string> inputs;
    for (const auto& in : d_.inputs) {
      if (in.name.empty()) fail("an input needs a non-empty name");
      if (!inputs.insert(in.name).second) fail("duplicate input '" + in.name + "'");
    }
    for (const auto& s : d_.steps) {
      if (s.name.empty()) fail("a step needs a non-empty name");
      if (s.name.find_first_of("/[]:") != std::string::npos) {
        fail_step(s, "names may not contain '/', '[', ']' or ':' (they build step paths)");
      }
      if (!index_.emplace(s.name, s.index).second) fail("duplicate step name '" + s.name + "'");
    }
  }

  void check_body(const StepSpec& s) const {
    if (s.kind == StepKind::kStep && !s.run && !s.factory) fail_step(s, "has no body");
    if (s.kind == StepKind::kInterrupt) return check_interrupt(s);
    if (s.kind != StepKind::kStep && !s.child) fail_step(s, "has no child reactor");
    if ((s.kind == StepKind::kMap || s.kind == StepKind::kAsync) && has_interrupt(*s.child)) {
      // An element or a unit is a run of its own that nobody resumes: it would wait for ever.
      fail_step(s, "its reactor '" + s.child->name +
                       "' has an interrupt, which is not supported inside a map element or an "
                       "async unit");
    }
    if (s.kind == StepKind::kMap && !s.map_source && !s.pages) {
      fail_step(s, "a map needs a source() collection or source_pages()");
    }
    if (s.map_source && s.pages) fail_step(s, "a map takes source() or source_pages(), not both");
    if (s.kind != StepKind::kMap && s.collect) fail_step(s, "collect() applies to maps only");
    if (s.claim > 1 || s.claim_source) check_claims(s);
    if (s.checkpoint_steps && !s.fan_out) {
      fail_step(s, "checkpoint_steps() applies to a map with fan_out() only");
    }
  }

  // A claimed element runs in memory, inside its claim's run, and its slot keeps its steps for
  // its undos (Builder::claim_batch): steps of its own only, no child run to keep.
  void check_claims(const StepSpec& s) const {
    if (!s.fan_out) fail_step(s, "claim_batch() applies to a map with fan_out() only");
    if (s.checkpoint_steps) {
      const std::string size = s.claim_source ? s.claim_source->name() : std::to_string(s.claim);
      fail_step(s, "claim_batch(" + size +
                       ") and checkpoint_steps() exclude each other: a claim checkpoints its "
                       "elements only at its end");
    }
    if (!s.child) return;
    for (const StepSpec& e : s.child->steps) {
      if (e.kind != StepKind::kStep) {
        fail_step(s, "its reactor '" + s.child->name + "' has step '" + e.name +
                         "', which is not a plain step: claim_batch() runs elements of plain "
                         "steps only");
      }
    }
  }

  void check_interrupt(const StepSpec& s) const {
    const InterruptSpec& i = *s.interrupt;
    if (i.max_attempts < 1) fail_step(s, "max_attempts must be at least 1");
    if (i.timeout && *i.timeout <= Duration::zero()) fail_step(s, "timeout must be positive");
    if (i.timeout_seconds) check_source(s, *i.timeout_seconds, "timeout");
    std::set<std::string> fields;
    for (const InputSpec& f : i.payload) {
      if (f.name.empty()) fail_step(s, "a payload field needs a non-empty name");
      if (!fields.insert(f.name).second) fail_step(s, "duplicate payload field '" + f.name + "'");
    }
  }

  // Whether `d`, or a reactor it composes, has an interrupt.
  static bool has_interrupt(const DefinitionData& d) {
    for (const StepSpec& s : d.steps) {
      if (s.kind == StepKind::kInterrupt) return true;
      if (s.kind == StepKind::kCompose && s.child && has_interrupt(*s.child)) return true;
    }
    return false;
  }

  void check_retry(const StepSpec& s) const {
    const RetryPolicy& r = s.retry;
    if (r.max_attempts() < 1) fail_step(s, "max_attempts must be at least 1");
    if (r.base_delay() < Duration::zero()) fail_step(s, "retry delay must not be negative");
    if (r.max_delay() && *r.max_delay() < Duration::zero()) {
      fail_step(s, "retry max_delay must not be negative");
    }
    if (r.jitter() < Duration::zero()) fail_step(s, "retry jitter must not be negative");
    if (s.timeout && *s.timeout <= Duration::zero()) fail_step(s, "timeout must be positive");
  }

  void check_source(const StepSpec& s, const ArgumentSource& src, const std::string& arg) const {
    switch (src.kind()) {
      case ArgumentSource::Kind::kInput:
        if (!has_input(src.name())) {
          fail_step(s, "argument '" + arg + "' refers to unknown input '" + src.name() + "'");
        }
        break;
      case ArgumentSource::Kind::kResult:
        if (!index_.count(src.name())) {
          fail_step(s, "argument '" + arg + "' refers to unknown step '" + src.name() + "'");
        }
        if (src.name() == s.name) fail_step(s, "argument '" + arg + "' refers to its own result");
        break;
      case ArgumentSource::Kind::kElement:
        if (s.kind != StepKind::kMap || src.name() != s.name) {
          fail_step(s, "argument '" + arg + "': element(\"" + src.name() +
                           "\") is only valid among the arguments of map '" + src.name() + "'");
        }
        break;
      case ArgumentSource::Kind::kValue:
        break;
    }
  }

  void check_arguments(const StepSpec& s) const {
    std::set<std::string> names;
    for (const auto& a : s.arguments) {
      if (!names.insert(a.name).second) fail_step(s, "duplicate argument '" + a.name + "'");
      check_source(s, a.source, a.name);
    }
    if (s.map_source) {
      if (s.map_source->kind() == ArgumentSource::Kind::kElement) {
        fail_step(s, "source() cannot be an element");
      }
      check_source(s, *s.map_source, "source");
    }
    if (s.batch_size_source) check_source(s, *s.batch_size_source, "fan_out");
    if (s.claim_source) check_source(s, *s.claim_source, "claim_batch");
    for (const auto& w : s.wait_for) {
      if (!index_.count(w)) fail_step(s, "wait_for refers to unknown step '" + w + "'");
      if (w == s.name) fail_step(s, "wait_for refers to itself");
    }
    if ((s.kind == StepKind::kCompose || s.kind == StepKind::kAsync) && !s.declares_arguments) {
      check_child_inputs(s, inputs_the_child_declares(s));
    } else if (s.kind != StepKind::kStep && s.kind != StepKind::kInterrupt) {
      check_child_inputs(s, names);
    }
  }

  // A composed child without arguments gets the parent's inputs it declares (run_compose).
  std::set<std::string> inputs_the_child_declares(const StepSpec& s) const {
    std::set<std::string> given;
    for (const auto& in : s.child->inputs) {
      if (has_input(in.name)) given.insert(in.name);
    }
    return given;
  }

  // A composed child or a map element gets the step's arguments as inputs:
  // each must be one the child declares (but a paged map's, which its pages
  // may take alone), and every required one must be given.
  void check_child_inputs(const StepSpec& s, const std::set<std::string>& given) const {
    std::set<std::string> declared;
    for (const auto& in : s.child->inputs) {
      declared.insert(in.name);
      if (!in.schema.is_optional() && !given.count(in.name)) {
        fail_step(s, "child reactor '" + s.child->name + "' requires input '" + in.name +
                         "', which no argument provides");
      }
    }
    for (const auto& g : given) {
      // A paged map's pages are asked with its arguments: one its element does not declare is
      // for them alone.
      if (!declared.count(g) && !s.pages) {
        fail_step(s,
                  "argument '" + g + "' is not an input of child reactor '" + s.child->name + "'");
      }
    }
    if (s.kind == StepKind::kMap) {
      bool has_element = std::any_of(s.arguments.begin(), s.arguments.end(), [](const auto& a) {
        return a.source.kind() == ArgumentSource::Kind::kElement;
      });
      if (!has_element) {
        fail_step(s, "a map needs an argument bound to element(\"" + s.name + "\")");
      }
    }
  }

  void resolve_dependencies() {
    for (auto& s : d_.steps) {
      std::set<std::size_t> deps;
      for (auto& a : s.arguments) {
        if (a.source.kind() == ArgumentSource::Kind::kResult) {
          a.result_step = index_.at(a.source.name());
          deps.insert(a.result_step);
        }
      }
      for (const auto* src : {&s.batch_size_source, &s.claim_source, &s.map_source}) {
        if (*src && (*src)->kind() == ArgumentSource::Kind::kResult) {
          deps.insert(index_.at((*src)->name()));
        }
      }
      if (s.interrupt && s.interrupt->timeout_seconds &&
          s.interrupt->timeout_seconds->kind() == ArgumentSource::Kind::kResult) {
        deps.insert(index_.at(s.interrupt->timeout_seconds->name()));
      }
      for (const auto& w : s.wait_for) deps.insert(index_.at(w));
      s.dependencies.assign(deps.begin(), deps.end());
    }
    for (const auto& s : d_.steps) {
      for (auto dep : s.dependencies) d_.steps[dep].dependents.push_back(s.index);
    }
  }

  // Kahn's algorithm; on a cycle, walk it to name its steps.
  void check_acyclic() const {
    const auto n = d_.steps.size();
    std::vector<int> indegree(n, 0);
    std::vector<std::vector<std::size_t>> dependents(n);
    for (const auto& s : d_.steps) {
      for (auto dep : s.dependencies) dependents[dep].push_back(s.index);
      indegree[s.index] = static_cast<int>(s.dependencies.size());
    }
    std::vector<std::size_t> ready;
    for (std::size_t i = 0; i < n; ++i) {
      if (indegree[i] == 0) ready.push_back(i);
    }
    std::size_t seen = 0;
    while (!ready.empty()) {
      auto i = ready.back();
      ready.pop_back();
      ++seen;
      for (auto d : dependents[i]) {
        if (--indegree[d] == 0) ready.push_back(d);
      }
    }
    if (seen == n) return;
    fail("dependency cycle: " + describe_cycle(indegree));
  }

  std::string describe_cycle(const std::vector<int>& indegree) const {
    // Every step left with indegree > 0 lies on or behind a cycle; following
    // unresolved dependencies from one must revisit a step.
    std::size_t at = 0;
    while (indegree[at] == 0) ++at;
    std::vector<std::size_t> path;
    std::map<std::size_t, std::size_t> pos;
    while (!pos.count(at)) {
      pos[at] = path.size();
      path.push_back(at);
      for (auto dep : d_.steps[at].dependencies) {
        if (indegree[dep] > 0) {
          at = dep;
          break;
        }
      }
    }
    std::string out;
    for (std::size_t k = pos[at]; k < path.size(); ++k) out += d_.steps[path[k]].name + " -> ";
    return out + d_.steps[at].name;
  }

  void resolve_returns(const std::optional<std::string>& returns_name) {
    if (!returns_name) return;
    auto it = index_.find(*returns_name);
    if (it == index_.end()) fail("returns() names unknown step '" + *returns_name + "'");
    if (d_.steps[it->second].kind == StepKind::kAsync) {
      // The run's value would be whatever the unit left, read by no step: name a reader instead.
      fail("returns() names async unit '" + *returns_name +
           "': a run's value is a step's that reads it (argument result(\"" + *returns_name +
           "\"))");
    }
    d_.returns = it->second;
  }

  // One hand-off point per reactor, at a step it has. Where the run is executed is no part of
  // the graph: the fingerprint does not change with it.
  void resolve_hand_off(const HandOffNames& hand_offs) {
    auto declared = [](const HandOffNames::value_type& h) {
      return std::string("background_") + to_string(h.first) + "(\"" + h.second + "\")";
    };
    if (hand_offs.size() > 1) {
      fail("declares " + declared(hand_offs[0]) + " and " + declared(hand_offs[1]) +
           ": a reactor has at most one hand-off point");
    }
    if (hand_offs.empty()) return;
    auto it = index_.find(hand_offs[0].second);
    if (it == index_.end()) fail(declared(hand_offs[0]) + " names unknown step");
    d_.hand_off = HandOff{hand_offs[0].first, it->second};
  }

  // An async_step's body becomes the reactor "<reactor>.<step>" of one step, which its job runs:
  // its inputs are the step's arguments (or, without any, the reactor's inputs), and its value
  // the step's.
  void make_unit_reactors() {
    for (StepSpec& s : d_.steps) {
      if (s.kind != StepKind::kAsync || !s.own_body || s.child) continue;
      auto unit = std::make_shared<DefinitionData>();
      unit->name = d_.name + "." + s.name;
      StepSpec body = s;
      body.kind = StepKind::kStep;
      body.own_body = false;
      body.index = 0;
      body.wait_for.clear();
      if (s.declares_arguments) {
        for (ArgumentSpec& a : body.arguments) {
          unit->inputs.push_back(InputSpec{a.name, any()});
          a.source = input(a.name);
        }
      } else {
        unit->inputs = d_.inputs;
      }
      unit->steps.push_back(std::move(body));
      finish_definition(*unit, s.name);
      s.child = std::move(unit);
      s.run = nullptr;
      s.factory = nullptr;
      s.compensate = nullptr;
      s.retry = RetryPolicy{};
      s.timeout.reset();
      s.output_schema.reset();
    }
  }

  bool has_input(const std::string& name) const {
    return std::any_of(d_.inputs.begin(), d_.inputs.end(),
                       [&](const InputSpec& in) { return in.name == name; });
  }

 private:
  DefinitionData& d_;
  std::map<std::string, std::size_t> index_;
};

}  // namespace

bool reads_result_of(const DefinitionData& def, std::size_t reader, std::size_t unit) {
  const StepSpec& r = def.steps[reader];
  auto names_unit = [&](const std::optional<ArgumentSource>& src) {
    return src && src->kind() == ArgumentSource::Kind::kResult &&
           src->name() == def.steps[unit].name;
  };
  for (const ArgumentSpec& a : r.arguments) {
    if (a.result_step == unit) return true;
  }
  return names_unit(r.map_source) || names_unit(r.batch_size_source) || names_unit(r.claim_source);
}

void finish_definition(DefinitionData& data, const std::optional<std::string>& returns_name,
                       const HandOffNames& hand_offs) {
  Checker c(data);
  c.check_names();
  c.make_unit_reactors();
  for (const auto& s : data.steps) {
    c.check_body(s);
    c.check_retry(s);
    c.check_arguments(s);
  }
  c.resolve_dependencies();
  c.check_acyclic();
  c.resolve_returns(returns_name);
  c.resolve_hand_off(hand_offs);
  data.fingerprint = fingerprint_of(data);
}

}  // namespace reactor
