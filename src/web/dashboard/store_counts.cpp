// What several views count in the store: the queues of the reactors registered here, and how many
// runs are in each status (the runs list, the Workers view, the dashboard's /metrics).
#include <set>

#include "web/dashboard/api.hpp"

namespace reactor::web {

std::vector<std::string> registered_queues(const Engine& engine) {
  std::set<std::string> queues;
  for (const std::string& name : engine.registry().names()) queues.insert(engine.queue_for(name));
  return {queues.begin(), queues.end()};
}

Result<StatusCounts> count_by_status(const Inspector& inspector, RunFilter filter,
                                     const std::vector<RunStatus>& statuses) {
  StatusCounts counts;
  for (RunStatus s : statuses) {
    filter.status = s;
    Result<std::size_t> n = inspector.count_runs(filter);
    if (!n.ok()) return n.status();
    counts.emplace_back(s, *n);
  }
  return counts;
}

}  // namespace reactor::web
