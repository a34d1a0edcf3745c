#include "reactor/backend.hpp"

#include <thread>

namespace reactor {

Status Backend::wait_for_jobs(const std::vector<std::string>&, Duration max_wait) {
  // Nothing to block on: an enqueue cannot wake this caller, so it polls.
  if (max_wait > Duration::zero()) std::this_thread::sleep_for(max_wait);
  return Status::Ok();
}

}  // namespace reactor
