// Checks a run's inputs against its reactor's declaration, and masks the
// redacted ones for errors, traces and logs.
#pragma once

#include <vector>

#include "reactor/definition.hpp"
#include "reactor/schema.hpp"

namespace reactor {

// Applies defaults to `inputs`, nested members' included, and returns every field error (empty:
// valid).
// Undeclared inputs are errors too: a typo must not pass silently.
std::vector<FieldError> validate_inputs(const DefinitionData& def, Value& inputs);
// The same rules for any list of fields (an interrupt's payload): `whole` names the object in
// its error ("inputs must be a JSON object"), `one` a field ("is not a declared input").
std::vector<FieldError> validate_fields(const std::vector<InputSpec>& fields, Value& inputs,
                                        const char* whole, const char* one);

// A copy of `inputs` with every redacted field — an input, or a member or element of one —
// replaced by "[REDACTED]".
Value redact_inputs(const DefinitionData& def, const Value& inputs);

// "amount: must be at least 1; order_id: is missing"
std::string describe(const std::vector<FieldError>& errors);

}  // namespace reactor
