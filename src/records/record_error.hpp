// RecordError: a stored record that cannot be read.
#pragma once

#include <stdexcept>

namespace reactor::records {

// Malformed JSON, text that is not UTF-8, a missing member, a value of the
// wrong type or out of range, a schema version newer than this build's.
// Callers report it as Corruption, naming the record.
class RecordError : public std::invalid_argument {
 public:
  using std::invalid_argument::invalid_argument;
};

// A value nested deeper than kMaxValueDepth (reactor/limits.hpp): JSON that may be valid, but
// one the engine refuses to hold, as it refuses one too large.
class TooDeep : public RecordError {
 public:
  using RecordError::RecordError;
};

}  // namespace reactor::records
