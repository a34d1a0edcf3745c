// WorkerProcesses: the `reactor-bench worker` child processes of the
// whole-process benchmarks (w1, map). Whatever path a benchmark leaves by, each
// one is stopped by its PID: SIGTERM, then SIGKILL if it has not exited in 5 s.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <string>
#include <vector>

namespace reactor_bench {

class WorkerProcesses {
 public:
  ~WorkerProcesses() { stop_all(); }

  // Starts this binary as `reactor-bench worker --storage URL <extra args>`,
  // with `env` added to this process's environment (each "NAME=value" replaces
  // that variable) and stderr to `log`.
  bool spawn(const std::string& url, const std::vector<std::string>& extra_args,
             const std::vector<std::string>& env, const std::string& log);
  // Waits (bounded) until every worker has said it is serving.
  bool wait_ready(std::chrono::seconds bound);
  bool all_alive();

  // CPU seconds and bytes written by all workers so far; -1 when unreadable.
  double cpu_s() const;
  double written() const;
  // The largest peak resident set (VmHWM) of one worker, in bytes; -1 when unreadable.
  double peak_rss() const;

  // The end of every worker's log, for a failure report.
  std::string log_tails() const;
  // Every worker's whole log (read after stop_all: their last lines say what they did).
  std::vector<std::string> logs() const;

  void stop_all();

 private:
  std::vector<pid_t> pids_;
  std::vector<pid_t> exited_;
  std::vector<std::string> logs_;
};

}  // namespace reactor_bench
