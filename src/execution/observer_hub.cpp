#include "execution/observer_hub.hpp"

#include <string>

namespace reactor {

void ObserverHub::log_failure(const char* event, const char* what) const {
  logger_->log(LogLevel::kError,
               std::string("observer threw in ") + event + ": " + what + " (ignored)");
}

}  // namespace reactor
