#include "worker_processes.hpp"

#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <thread>

#include "support.hpp"

extern char** environ;

namespace reactor_bench {

using namespace std::chrono_literals;

namespace {

std::vector<char*> pointers(std::vector<std::string>& strings) {
  std::vector<char*> out;
  for (auto& s : strings) out.push_back(s.data());
  out.push_back(nullptr);
  return out;
}

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void stop(pid_t pid) {
  ::kill(pid, SIGTERM);
  for (int i = 0; i < 500; ++i) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) return;
    std::this_thread::sleep_for(10ms);
  }
  ::kill(pid, SIGKILL);
  int status = 0;
  ::waitpid(pid, &status, 0);
}

// VmHWM of a process, in bytes; -1 when unreadable.
double peak_rss_of(pid_t pid) {
  std::ifstream in("/proc/" + std::to_string(pid) + "/status");
  std::string key;
  while (in >> key) {
    if (key == "VmHWM:") {
      double kb = 0;
      in >> kb;
      return kb * 1024;
    }
    in.ignore(4096, '\n');
  }
  return -1;
}

template <typename Reading>
double sum_over(const std::vector<pid_t>& pids, Reading reading) {
  double total = 0;
  for (pid_t pid : pids) {
    const double v = reading(pid);
    if (v < 0) return -1;
    total += v;
  }
  return total;
}

}  // namespace

// Everything the child needs is prepared before fork(): between fork and exec it only calls
// async-signal-safe functions.
bool WorkerProcesses::spawn(const std::string& url, const std::vector<std::string>& extra_args,
                            const std::vector<std::string>& env, const std::string& log) {
  std::vector<std::string> args = {"reactor-bench", "worker", "--storage", url};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::vector<std::string> envs = env;
  for (char** e = environ; *e != nullptr; ++e) {
    std::string entry(*e);
    const std::string name = entry.substr(0, entry.find('=') + 1);
    const bool replaced = std::any_of(env.begin(), env.end(), [&](const std::string& given) {
      return given.rfind(name, 0) == 0;
    });
    if (!replaced) envs.push_back(std::move(entry));
  }
  std::vector<char*> argv = pointers(args), envp = pointers(envs);
  const int log_fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
  if (log_fd < 0) return false;
  const pid_t pid = ::fork();
  if (pid == 0) {
    ::dup2(log_fd, STDERR_FILENO);
    ::execve("/proc/self/exe", argv.data(), envp.data());
    _exit(127);
  }
  ::close(log_fd);
  if (pid < 0) return false;
  pids_.push_back(pid);
  logs_.push_back(log);
  return true;
}

bool WorkerProcesses::wait_ready(std::chrono::seconds bound) {
  const auto deadline = std::chrono::steady_clock::now() + bound;
  while (std::chrono::steady_clock::now() < deadline) {
    std::size_t ready = 0;
    for (const auto& log : logs_) ready += read_file(log).find("serving") != std::string::npos;
    if (ready == logs_.size()) return true;
    if (!all_alive()) return false;
    std::this_thread::sleep_for(10ms);
  }
  return false;
}

bool WorkerProcesses::all_alive() {
  for (pid_t pid : pids_) {
    int status = 0;
    if (::waitpid(pid, &status, WNOHANG) == pid) {
      exited_.push_back(pid);
      return false;
    }
  }
  return true;
}

double WorkerProcesses::cpu_s() const {
  return sum_over(pids_, [](pid_t p) { return cpu_seconds(p); });
}

double WorkerProcesses::written() const {
  return sum_over(pids_, [](pid_t p) { return static_cast<double>(written_bytes(p)); });
}

double WorkerProcesses::peak_rss() const {
  double most = -1;
  for (pid_t pid : pids_) most = std::max(most, peak_rss_of(pid));
  return most;
}

std::string WorkerProcesses::log_tails() const {
  std::string out;
  for (const auto& log : logs_) {
    std::string text = read_file(log);
    if (text.size() > 600) text = "..." + text.substr(text.size() - 600);
    out += "\n--- " + log + "\n" + text;
  }
  return out;
}

std::vector<std::string> WorkerProcesses::logs() const {
  std::vector<std::string> out;
  for (const auto& log : logs_) out.push_back(read_file(log));
  return out;
}

void WorkerProcesses::stop_all() {
  for (pid_t pid : pids_) {
    if (std::find(exited_.begin(), exited_.end(), pid) == exited_.end()) stop(pid);
  }
  pids_.clear();
}

}  // namespace reactor_bench
