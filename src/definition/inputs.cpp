#include "definition/inputs.hpp"

namespace reactor {

std::vector<FieldError> validate_inputs(const DefinitionData& def, Value& inputs) {
  return validate_fields(def.inputs, inputs, "inputs", "input");
}

std::vector<FieldError> validate_fields(const std::vector<InputSpec>& fields, Value& inputs,
                                        const char* whole, const char* one) {
  std::vector<FieldError> errors;
  if (inputs.is_null()) inputs = Value::object();
  if (!inputs.is_object()) {
    errors.push_back({"", std::string(whole) + " must be a JSON object"});
    return errors;
  }
  for (const auto& in : fields) {
    auto it = inputs.find(in.name);
    if (it == inputs.end()) {
      if (in.schema.default_val()) {
        inputs[in.name] = in.schema.fill_defaults(*in.schema.default_val());
      } else if (!in.schema.is_optional()) {
        errors.push_back({in.name, "is missing"});
      }
      continue;
    }
    *it = in.schema.fill_defaults(std::move(*it));
    std::vector<FieldError> invalid = in.schema.validate(in.name, *it);
    errors.insert(errors.end(), std::make_move_iterator(invalid.begin()),
                  std::make_move_iterator(invalid.end()));
  }
  for (auto it = inputs.begin(); it != inputs.end(); ++it) {
    bool declared = false;
    for (const auto& in : fields) declared = declared || in.name == it.key();
    if (!declared) errors.push_back({it.key(), std::string("is not a declared ") + one});
  }
  return errors;
}

Value redact_inputs(const DefinitionData& def, const Value& inputs) {
  Value out = inputs;
  if (!out.is_object()) return out;
  for (const auto& in : def.inputs) {
    if (auto it = out.find(in.name); it != out.end()) *it = in.schema.mask(*it);
  }
  return out;
}

std::string describe(const std::vector<FieldError>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += "; ";
    out += e.field.empty() ? e.message : e.field + ": " + e.message;
  }
  return out;
}

}  // namespace reactor
