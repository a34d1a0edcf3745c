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

}  // namespace reactor::records
