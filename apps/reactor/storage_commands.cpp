// The commands that work on stored runs: worker, runs, show, sweep.
#include <cstdio>
#include <iostream>

#include <unistd.h>

#include "cli_engine.hpp"
#include "commands.hpp"
#include "reactor/worker.hpp"

namespace reactor_cli {

using namespace reactor;

int run_worker_command(const WorkerCliOptions& o) {
  DurabilityOptions durability;
  durability.lease_ttl = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(o.lease_ttl_s));
  CliEngine cli;
  if (!cli.open(o.storage, durability)) return 2;
  WorkerOptions w;
  w.threads = o.threads;
  w.sweep_interval = std::chrono::duration_cast<Duration>(
      std::chrono::duration<double>(o.sweep_interval_s));
  // describe(): the URL with any password masked.
  std::fprintf(stderr, "reactor worker: serving %s with %d thread(s) (pid %d)\n",
               cli.engine().backend()->describe().c_str(), o.threads,
               static_cast<int>(getpid()));
  return run_worker(cli.engine(), w);
}

int run_runs(const RunsOptions& o) {
  CliEngine cli;
  if (!cli.open(o.storage, {})) return 2;
  RunFilter filter;
  filter.limit = o.limit;
  if (o.status) {
    try {
      filter.status = run_status_from_string(*o.status);
    } catch (const std::exception&) {
      std::cerr << "reactor runs: unknown status '" << *o.status << "'\n";
      return 2;
    }
  }
  std::vector<RunHeaderRow> rows;
  Status s = cli.engine().backend()->list_runs(filter, rows);
  if (!s.ok()) {
    std::cerr << "reactor runs: " << s.to_string() << "\n";
    return 1;
  }
  for (const auto& r : rows) {
    if (o.json) {
      std::cout << Value{{"id", r.id},
                         {"reactor", r.reactor},
                         {"status", to_string(r.status)},
                         {"updated_at_ms", r.updated_at_ms}}
                       .dump()
                << "\n";
    } else {
      std::printf("%-36s  %-16s  %s\n", r.id.c_str(), r.reactor.c_str(), to_string(r.status));
    }
  }
  return 0;
}

int run_show(const ShowOptions& o) {
  CliEngine cli;
  if (!cli.open(o.storage, {})) return 2;
  RunResult r;
  Status s = cli.engine().find(o.run_id, r);
  if (!s.ok()) {
    std::cerr << "reactor show: " << s.to_string() << "\n";
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  if (o.json) {
    std::cout << to_json(r).dump(2) << "\n";
    return 0;
  }
  std::printf("run      %s\nreactor  %s\nstatus   %s\n", r.run_id.c_str(), r.reactor.c_str(),
              to_string(r.status));
  if (r.ok()) std::printf("value    %s\n", r.value.dump().c_str());
  if (r.error) {
    std::printf("error    %s at '%s': %s\n", to_string(r.error->kind), r.error->step.c_str(),
                r.error->message.c_str());
  }
  std::printf("steps\n");
  for (const auto& step : r.steps) {
    std::printf("  %-28s %-16s attempts=%d\n", step.step.c_str(), to_string(step.status),
                step.attempts);
  }
  std::printf("trace    %s\n", r.trace_summary().c_str());
  return 0;
}

int run_sweep(const std::string& storage) {
  CliEngine cli;
  if (!cli.open(storage, {})) return 2;
  std::size_t requeued = 0, purged = 0;
  Status s = cli.sweep_once(requeued, purged);
  if (!s.ok()) {
    std::cerr << "reactor sweep: " << s.to_string() << "\n";
    return 1;
  }
  std::printf("requeued %zu run(s), purged %zu expired run(s)\n", requeued, purged);
  return 0;
}

}  // namespace reactor_cli
