#include "execution/observer_hub.hpp"

#include <cstdio>

namespace reactor {

void ObserverHub::log_failure(const char* event, const char* what) {
  std::fprintf(stderr, "reactor: observer threw in %s: %s (ignored)\n", event, what);
}

}  // namespace reactor
