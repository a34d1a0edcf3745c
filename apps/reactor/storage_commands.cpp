// The commands that work on stored runs: worker, runs, show, sweep, enqueue.
#include <cstdio>
#include <iostream>

#include "cli_engine.hpp"
#include "commands.hpp"
#include "worker_loop.hpp"

namespace reactor_cli {

using namespace reactor;

int run_worker_command(const WorkerCliOptions& o) {
  const sigset_t stop_signals = block_stop_signals();
  CliEngine cli;
  if (!cli.open(o.storage, durability_options(o.loop))) return 2;
  return serve(cli.engine(), o.loop, stop_signals, "reactor worker");
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

int run_enqueue(const std::string& storage, const std::string& run_id) {
  CliEngine cli;
  if (!cli.open(storage, {})) return 2;
  Backend& backend = *cli.engine().backend();
  RunHeaderRow run;
  Status s = backend.load_header(run_id, run);
  if (!s.ok()) {
    std::cerr << "reactor enqueue: " << s.to_string() << "\n";
    return s.code() == StatusCode::kNotFound ? 2 : 1;
  }
  if (!run.parent_id.empty()) {
    std::cerr << "reactor enqueue: run " << run_id << " is a child of run " << run.root_id
              << "; enqueue the root\n";
    return 2;
  }
  // The queue is the reactor's name: the CLI's engine routes every reactor so.
  CommitRequest c;
  c.enqueue.push_back(JobSpec{run.reactor, JobKind::kResume, run.id, run.reactor,
                              to_unix_ms(cli.engine().clock().now()), 0});
  s = backend.commit(c);
  if (!s.ok()) {
    std::cerr << "reactor enqueue: " << s.to_string() << "\n";
    return 1;
  }
  std::printf("enqueued a resume job for run %s (%s, %s)\n", run.id.c_str(), run.reactor.c_str(),
              to_string(run.status));
  return 0;
}

}  // namespace reactor_cli
