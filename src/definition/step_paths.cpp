// Step paths (reactor/definition.hpp): how a test names a step of a reactor or of the reactors
// inside it, checked against the definition so that a typo is an error, never a mock that
// silently matches nothing.
#include <algorithm>

#include "base/suggest.hpp"
#include "reactor/definition.hpp"

namespace reactor {

namespace {

// Whether a path may go on inside step `s`: its child's steps are steps of the run (an
// async_step's child is its own body, named by the step itself).
bool has_inner_steps(const StepSpec& s) {
  return s.child && (s.kind == StepKind::kCompose || s.kind == StepKind::kMap ||
                     (s.kind == StepKind::kAsync && !s.own_body));
}

// Whether step `s` runs its child as indexed runs: a map's elements, a unit's one run.
bool has_elements(const StepSpec& s) {
  return s.child && (s.kind == StepKind::kMap || s.kind == StepKind::kAsync);
}

void collect(const DefinitionData& d, const std::string& prefix, std::vector<std::string>& out) {
  for (const StepSpec& s : d.steps) {
    out.push_back(prefix + s.name);
    if (has_inner_steps(s)) collect(*s.child, prefix + s.name + "/", out);
  }
}

// One segment of a path: "email", or "tickets[1]" (its index is kept as text, digits only).
struct Segment {
  std::string name;
  bool indexed = false;
  bool valid = true;
};

Segment parse_segment(const std::string& text) {
  Segment seg;
  const auto open = text.find('[');
  seg.name = text.substr(0, open);
  if (open == std::string::npos) return seg;
  seg.indexed = true;
  const std::string digits = text.substr(open + 1, text.size() - open - 2);
  seg.valid =
      text.back() == ']' && !digits.empty() &&
      std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; });
  return seg;
}

}  // namespace

// Each segment a step, an index only on a step with elements, the last one a step itself (not
// an element).
const StepSpec* find_step_path(const Definition& def, const std::string& path) {
  const DefinitionData* at = def.data().get();
  std::size_t from = 0;
  for (;;) {
    const std::size_t slash = path.find('/', from);
    const Segment seg = parse_segment(path.substr(from, slash - from));
    const auto step = std::find_if(at->steps.begin(), at->steps.end(),
                                   [&](const StepSpec& s) { return s.name == seg.name; });
    if (!seg.valid || step == at->steps.end()) return nullptr;
    if (seg.indexed && !has_elements(*step)) return nullptr;
    if (slash == std::string::npos) return seg.indexed ? nullptr : &*step;
    if (!has_inner_steps(*step)) return nullptr;
    at = step->child.get();
    from = slash + 1;
  }
}

std::vector<std::string> step_paths(const Definition& def) {
  std::vector<std::string> out;
  collect(*def.data(), "", out);
  return out;
}

std::optional<std::string> step_path_error(const Definition& def, const std::string& path) {
  if (find_step_path(def, path) != nullptr) return std::nullopt;
  std::string why = "no step '" + path + "' in " + def.name();
  const std::vector<std::string> near = closest_first(without_indices(path), step_paths(def));
  if (!near.empty()) why += "; the nearest is '" + near.front() + "'";
  return why;
}

std::string without_indices(const std::string& path) {
  std::string out;
  out.reserve(path.size());
  for (std::size_t i = 0; i < path.size(); ++i) {
    if (path[i] != '[') {
      out += path[i];
      continue;
    }
    const std::size_t close = path.find(']', i);
    if (close == std::string::npos) return out + path.substr(i);
    i = close;
  }
  return out;
}

}  // namespace reactor
