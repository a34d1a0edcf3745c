// `runs`: the stored runs, newest first, filtered by status and reactor, as a table or JSON
// lines, read through the Inspector.
#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdio>
#include <iostream>

#include "cli/command.hpp"
#include "cli/text.hpp"
#include "reactor/inspector.hpp"

namespace reactor::cli {

namespace {

struct RunsOptions {
  std::optional<std::string> status;
  std::optional<std::string> reactor;
  std::size_t limit = 50;
  bool json = false;
  bool all = false;  // --all: the element runs of fan-out maps too
};

// The status named `name`, or none; the valid names in `valid`.
std::optional<RunStatus> status_named(const std::string& name, std::string& valid) {
  std::optional<RunStatus> found;
  for (RunStatus s : all_run_statuses()) {
    valid += (valid.empty() ? "" : ", ") + std::string(to_string(s));
    if (name == to_string(s)) found = s;
  }
  return found;
}

void print_table(const RunListing& listing) {
  // A UUID wide at least; an element run's id ("<root>:sum[12]") is longer.
  int id_width = 36, reactor_width = 7, status_width = 6;
  for (const RunSummary& r : listing.runs) {
    id_width = std::max(id_width, static_cast<int>(r.id.size()));
    reactor_width = std::max(reactor_width, static_cast<int>(r.reactor.size()));
    status_width =
        std::max(status_width, static_cast<int>(std::string(to_string(r.status)).size()));
  }
  std::printf("%-*s  %-*s  %-*s  %-20s  %s\n", id_width, "RUN", reactor_width, "REACTOR",
              status_width, "STATUS", "CREATED", "UPDATED");
  for (const RunSummary& r : listing.runs) {
    std::printf("%-*s  %-*s  %-*s  %-20s  %s\n", id_width, r.id.c_str(), reactor_width,
                r.reactor.c_str(), status_width, to_string(r.status),
                format_time(r.created_at_ms).c_str(), format_time(r.updated_at_ms).c_str());
    for (const WaitingInterrupt& w : r.waiting) {
      std::printf("  waits at %s  correlation %s  deadline %s\n", w.step.c_str(),
                  w.correlation_id.empty() ? "-" : w.correlation_id.c_str(),
                  format_time(w.deadline_ms).c_str());
    }
  }
}

// A paused run's interrupts, in its JSON line.
Value waiting_json(const RunSummary& r) {
  Value out = Value::array();
  for (const WaitingInterrupt& w : r.waiting) {
    out.push_back(Value{
        {"step", w.step}, {"correlation_id", w.correlation_id}, {"deadline_ms", w.deadline_ms}});
  }
  return out;
}

int run_runs(const Context& ctx, const RunsOptions& o) {
  const std::string who = ctx.program + " runs";
  RunFilter filter;
  filter.limit = o.limit;
  filter.reactor = o.reactor;
  filter.elements = o.all;  // counted as listed: "N of M runs shown" is of the same runs
  if (o.status) {
    std::string valid;
    filter.status = status_named(*o.status, valid);
    if (!filter.status) {
      print_error(who, "unknown status '" + *o.status + "' (valid: " + valid + ")");
      return 2;
    }
  }
  auto engine = open_store(ctx, "runs", StoreUse::kMustExist, ctx.options.engine.durability);
  if (!engine) return 2;
  Result<RunListing> listed = Inspector(*engine->backend()).list_runs(filter);
  if (!listed.ok()) {
    print_error(who, listed.status().to_string());
    return 1;
  }
  const RunListing& listing = *listed;
  if (o.json) {
    for (const RunSummary& r : listing.runs) {
      Value line{{"id", r.id},
                 {"reactor", r.reactor},
                 {"status", to_string(r.status)},
                 {"created_at_ms", r.created_at_ms},
                 {"updated_at_ms", r.updated_at_ms}};
      if (!r.waiting.empty()) line["waiting"] = waiting_json(r);
      std::cout << line.dump() << "\n";
    }
  } else if (listing.runs.empty()) {
    std::printf("no runs\n");
  } else {
    print_table(listing);
  }
  if (listing.truncated()) {
    // With --json on stderr, so that stdout stays one run per line.
    std::fprintf(o.json ? stderr : stdout, "%s of %s runs shown; use --limit to see more\n",
                 format_count(listing.runs.size()).c_str(), format_count(listing.total).c_str());
  }
  return 0;
}

class RunsCommand final : public Command {
 public:
  const char* name() const override { return "runs"; }
  const char* description() const override { return "List stored runs, newest first"; }
  void declare(CLI::App& sub) override {
    sub.add_option("--status", options_.status, "Only runs with this status");
    sub.add_option("--reactor", options_.reactor, "Only runs of this reactor");
    sub.add_option("--limit", options_.limit, "At most this many")->capture_default_str();
    sub.add_flag("--json", options_.json, "One JSON object per line");
    sub.add_flag("--all", options_.all,
                 "Element runs of fan-out maps too (runs of their own, '<run>:<map>[i]')");
  }
  int run(const Context& ctx) override { return run_runs(ctx, options_); }

 private:
  RunsOptions options_;
};

}  // namespace

std::unique_ptr<Command> runs_command() { return std::make_unique<RunsCommand>(); }

}  // namespace reactor::cli
