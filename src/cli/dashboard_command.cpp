// `dashboard [--listen HOST:PORT] [--token T | --token-file F]`: serves the web dashboard
// (reactor/dashboard.hpp) on the store --storage names, for the reactors this program registers,
// until SIGTERM or SIGINT. Binding a non-loopback address without a token is refused (exit 2).
#include <CLI/CLI.hpp>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "cli/worker_loop.hpp"
#include "reactor/dashboard.hpp"

namespace reactor::cli {

namespace {

// "127.0.0.1:8080", "[::1]:8080", "0.0.0.0:80"; false when it is none of those.
bool parse_listen(const std::string& listen, DashboardOptions& o) {
  const auto colon = listen.rfind(':');
  if (colon == std::string::npos || colon == 0) return false;
  o.host = listen.substr(0, colon);
  try {
    std::size_t used = 0;
    o.port = std::stoi(listen.substr(colon + 1), &used);
    return used == listen.size() - colon - 1 && o.port >= 0 && o.port <= 65535;
  } catch (const std::exception&) {
    return false;
  }
}

// The token file's first line, trailing whitespace dropped; false when it cannot be read.
bool read_token(const std::string& path, std::string& token) {
  std::ifstream in(path);
  if (!in || !std::getline(in, token)) return false;
  token.erase(token.find_last_not_of(" \t\r\n") + 1);
  return !token.empty();
}

class DashboardCommand final : public Command {
 public:
  const char* name() const override { return "dashboard"; }
  const char* description() const override {
    return "Serve the web dashboard (runs, graphs, timelines, actions) on the store";
  }
  void declare(CLI::App& sub) override {
    sub.add_option("--listen", listen_, "HOST:PORT to listen on (default 127.0.0.1:8080)");
    auto* token = sub.add_option("--token", token_, "Token every request must carry");
    sub.add_option("--token-file", token_file_, "File whose first line is the token")
        ->excludes(token);
  }
  int run(const Context& ctx) override {
    const std::string who = ctx.program + " dashboard";
    DashboardOptions o;
    if (!parse_listen(listen_, o)) {
      print_error(who, "--listen '" + listen_ + "' is not HOST:PORT");
      return 2;
    }
    o.token = token_;
    if (!token_file_.empty() && !read_token(token_file_, o.token)) {
      print_error(who, "--token-file " + token_file_ + ": cannot read a token from it");
      return 2;
    }
    if (!is_loopback_host(o.host) && o.token.empty()) {
      print_error(who, "--listen " + listen_ +
                           " is not a loopback address: anyone on the network could act on "
                           "runs; give --token or --token-file");
      return 2;
    }
    const sigset_t stop_signals = block_stop_signals();
    auto engine = open_store(ctx, "dashboard", StoreUse::kMustExist, ctx.options.engine.durability);
    if (!engine) return 2;
    Dashboard dashboard(*engine, o);
    if (Status s = dashboard.start(); !s.ok()) {
      print_error(who, s.to_string());
      return 2;
    }
    std::printf("dashboard: http://%s:%d/%s\n", o.host.c_str(), dashboard.port(),
                o.token.empty() ? "" : "?token=<token>");
    std::fflush(stdout);
    int signal = 0;
    sigwait(&stop_signals, &signal);
    dashboard.stop();
    return 0;
  }

 private:
  std::string listen_ = "127.0.0.1:8080";
  std::string token_;
  std::string token_file_;
};

}  // namespace

std::unique_ptr<Command> dashboard_command() { return std::make_unique<DashboardCommand>(); }

}  // namespace reactor::cli
