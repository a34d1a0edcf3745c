#include <stdexcept>

#include "reactor/records.hpp"

namespace reactor {

// The names are stored in job rows, so they never change once written.
const char* to_string(JobKind k) {
  switch (k) {
    case JobKind::kStart:
      return "start";
    case JobKind::kResume:
      return "resume";
  }
  return "unknown";
}

JobKind job_kind_from_string(const std::string& s) {
  if (s == "start") return JobKind::kStart;
  if (s == "resume") return JobKind::kResume;
  throw std::invalid_argument("unknown job kind '" + s + "'");
}

}  // namespace reactor
