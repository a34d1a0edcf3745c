#include "demo_support.hpp"

#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <vector>

#include "reactor/backend.hpp"
#include "reactor/dashboard.hpp"

namespace reactor_demo {

std::unique_ptr<reactor::Engine> open_demo_engine(const std::string& storage,
                                                  examples::OrderServices& services) {
  reactor::Result<std::unique_ptr<reactor::Backend>> backend =
      reactor::open_backend(storage, nullptr);
  if (const reactor::Status& s = backend.status(); !s.ok()) {
    std::cerr << "reactor demo: cannot open storage: " << s.to_string() << "\n";
    return nullptr;
  }
  reactor::EngineOptions options;
  options.backend = std::move(backend).value();
  auto engine = std::make_unique<reactor::Engine>(std::move(options));
  examples::register_examples(engine->registry(), services);
  return engine;
}

pid_t spawn_worker(const DemoWorker& w) {
  // Everything the child needs is made before fork (the parent has threads).
  std::vector<std::string> args = {"reactor",          "worker",
                                   "--storage",        w.storage,
                                   "--threads",        std::to_string(w.threads),
                                   "--lease-ttl",      "1",
                                   "--sweep-interval", "1"};
  if (w.snooze_delay_s > 0) {
    args.push_back("--snooze-delay");
    args.push_back(std::to_string(w.snooze_delay_s));
  }
  if (w.snooze_max_attempts > 0) {
    args.push_back("--snooze-max-attempts");
    args.push_back(std::to_string(w.snooze_max_attempts));
  }
  std::vector<char*> argv;
  for (std::string& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  const std::string step_ms = std::to_string(w.step_ms);
  pid_t pid = fork();
  if (pid != 0) return pid;
  ::setenv("REACTOR_LEDGER", w.ledger.c_str(), 1);
  ::setenv("REACTOR_DEMO_STEP_MS", step_ms.c_str(), 1);
  int devnull = ::open("/dev/null", O_WRONLY);
  if (devnull >= 0) ::dup2(devnull, STDERR_FILENO);
  ::execv("/proc/self/exe", argv.data());
  _exit(127);
}

bool make_demo_dir(const std::string& prefix, std::string& dir) {
  const char* tmp = std::getenv("TMPDIR");
  std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/" + prefix + ".XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) return false;
  dir = pattern;
  return true;
}

void stop_worker(pid_t pid, int sig) {
  ::kill(pid, sig);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

std::map<std::string, int> steps_started_twice(const std::string& ledger) {
  std::ifstream in(ledger);
  std::map<std::string, int> starts;
  std::string kind, key, pid;
  while (in >> kind >> key >> pid) {
    if (kind == "S") ++starts[key];
  }
  std::erase_if(starts, [](const auto& entry) { return entry.second < 2; });
  return starts;
}

int repeated_starts(const std::map<std::string, int>& twice) {
  int again = 0;
  for (const auto& [_, n] : twice) again += n - 1;
  return again;
}

void remove_demo_files(const std::string& db, const std::string& ledger) {
  for (const char* suffix : {"", "-wal", "-shm", "-wake"}) std::filesystem::remove(db + suffix);
  std::filesystem::remove(ledger);
}

std::string thousands(std::size_t n) {
  const std::string digits = std::to_string(n);
  std::string out;
  for (std::size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

int end_with_dashboard(reactor::Engine& engine, const std::string& storage, bool keep, int rc) {
  if (!keep) {
    std::printf(
        "\nSee these runs in the dashboard: http://127.0.0.1:8080/ after\n"
        "  reactor dashboard --storage %s\n(or run the demo with --dashboard)\n",
        storage.c_str());
    return rc;
  }
  // Blocked before the server's threads start, so that they inherit the mask and sigwait alone
  // takes the signal.
  sigset_t stop;
  sigemptyset(&stop);
  sigaddset(&stop, SIGINT);
  sigaddset(&stop, SIGTERM);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  auto dashboard = std::make_unique<reactor::Dashboard>(engine);
  if (!dashboard->start().ok()) {
    dashboard = std::make_unique<reactor::Dashboard>(
        engine, reactor::DashboardOptions{.port = 0, .token = {}});
    if (reactor::Status s = dashboard->start(); !s.ok()) {
      std::fprintf(stderr, "reactor demo: %s\n", s.to_string().c_str());
      return 2;
    }
  }
  std::printf("\nThe dashboard, with these runs in it: http://127.0.0.1:%d/ (Ctrl-C stops it)\n",
              dashboard->port());
  std::fflush(stdout);
  int signal = 0;
  sigwait(&stop, &signal);
  dashboard->stop();
  return rc;
}

}  // namespace reactor_demo
