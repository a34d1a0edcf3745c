// Masking for the dashboard: the same redact_inputs the engine uses for errors, traces and logs
// (definition/inputs.hpp), so the page shows exactly what a log would.
#include "definition/inputs.hpp"
#include "web/dashboard/api.hpp"

namespace reactor::web {

Value masked_inputs(const Engine& engine, const std::string& reactor, const Value& inputs) {
  std::optional<Definition> def = engine.registry().find(reactor);
  // Without its schema nothing says which field is secret: show none of them.
  if (!def) return Value{{"[REDACTED]", "reactor not registered in this dashboard"}};
  return redact_inputs(*def->data(), inputs);
}

}  // namespace reactor::web

namespace reactor::web {

namespace {

constexpr const char* kMask = "[REDACTED]";

// The leaves of `raw` that `masked` hides.
void hidden_leaves(const Value& raw, const Value& masked, std::vector<Value>& out) {
  if (masked.is_string() && masked.get<std::string>() == kMask &&
      !(raw.is_string() && raw.get<std::string>() == kMask)) {
    if (raw.is_structured()) {
      for (const Value& leaf : raw.flatten()) out.push_back(leaf);
    } else {
      out.push_back(raw);
    }
    return;
  }
  if (raw.is_object() && masked.is_object()) {
    for (auto it = raw.begin(); it != raw.end(); ++it) {
      if (masked.contains(it.key())) hidden_leaves(it.value(), masked[it.key()], out);
    }
  } else if (raw.is_array() && masked.is_array()) {
    for (std::size_t i = 0; i < raw.size() && i < masked.size(); ++i) {
      hidden_leaves(raw[i], masked[i], out);
    }
  }
}

void mask_string(std::string& s, const std::string& secret) {
  if (secret.empty()) return;
  for (auto at = s.find(secret); at != std::string::npos; at = s.find(secret, at + 1)) {
    s.replace(at, secret.size(), kMask);
  }
}

void scrub(Value& v, const std::vector<Value>& secrets) {
  if (v.is_structured()) {
    for (Value& child : v) scrub(child, secrets);
    return;
  }
  for (const Value& secret : secrets) {
    // Strings only: a redacted number or flag equal to an attempt count is no leak worth
    // masking every count for.
    if (secret.is_string() && v.is_string()) {
      mask_string(v.get_ref<std::string&>(), secret.get<std::string>());
    }
  }
}

}  // namespace

void scrub_secrets(Value& body, const Value& raw, const Value& masked) {
  std::vector<Value> secrets;
  hidden_leaves(raw, masked, secrets);
  if (secrets.empty()) return;
  scrub(body, secrets);
}

}  // namespace reactor::web
