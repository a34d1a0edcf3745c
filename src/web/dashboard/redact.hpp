// Masking of redacted inputs in what the dashboard answers (redact.cpp).
#pragma once

#include "reactor/value.hpp"

namespace reactor::web {

// Replaces, everywhere in `body` but in `masked` itself, every value of a field `raw` holds and
// `masked` (the same inputs with redacted fields masked) hides: a string leaf wherever it appears
// inside a string, any other leaf where a value equals it. A step's result or an error message
// quoting a secret input so never shows it.
void scrub_secrets(Value& body, const Value& raw, const Value& masked);

}  // namespace reactor::web
