// cli_main: the `reactor` command line — start, worker, runs, show, sweep,
// enqueue and reactors — for a program's own reactors. A program registers
// its reactors in an Engine and hands it to cli_main from its main:
//
//   int main(int argc, char** argv) {
//     reactor::Engine engine;
//     engine.registry().add(travel_booking());
//     return reactor::cli_main(engine, argc, argv);
//   }
//
// and then `app start TravelBooking --input '{...}' --storage URL`, `app
// worker --storage URL`, `app runs`, ... work for its reactors. The shipped
// `reactor` binary is such a main, with the examples registered and a `demo`
// command of its own (CliOptions::commands).
//
// The engine given is where the reactors are registered: every command that
// needs a store opens the one --storage names (else the environment variable
// REACTOR_STORAGE, else CliOptions::default_storage, which the command then
// names on stderr: "storage: sqlite://reactor.db (default)") in an engine of
// its own, built from
// CliOptions::engine, and registers the given engine's definitions there (all
// of them, as registered when the command starts), with its named rate limits
// (Engine::rate_limits()). The given engine's own
// options (its backend, observers, clock) are not used.
//
// Every option of the top level (--storage) may come before or after the
// command. `start` takes its inputs inline (--input JSON), from a file
// (--input-file PATH or --input @PATH) or from stdin (--input -), read whole;
// a start refused (unknown reactor, invalid inputs or id) stores nothing.
// `reactors` lists the registered reactors (inputs, steps, queue). A mistyped
// option, command or reactor gets a suggestion. A password in a store URL
// never appears in a message.
//
// The element runs of fan-out maps are runs of their own: `runs` lists them
// only with --all, and `show` takes one's id ("<root>:<map step>[i]"), naming
// its map and owner. `show` of a run that dispatched maps prints each map's
// progress (total, done, failed, in flight, rolled back, state; Inspector).
//
// Exit codes: 0 success (a run that halted included); 1 a run that ended
// failed, or a store that failed; 2 a usage error (naming the argument), an
// unknown reactor or run, invalid inputs (too large ones included), a store
// that cannot be opened, or one that does not exist for a command that reads
// (runs, show, sweep, enqueue: they never make a new store) or for `worker`
// on the default store without --create; `enqueue` of a run that ended, or of
// a reactor not registered here, without --force.
//
// `worker` serves until SIGTERM or SIGINT: the first calls Worker::stop() (runs
// in flight finish their step and are handed back; at most --shutdown-timeout,
// default 25 s), a second Worker::stop_now(). It takes the signals by blocking
// them in the calling thread, which every thread started after inherits: call
// cli_main from main's thread before starting threads of your own.
//
// Thread safety: call it once, from main. It prints to stdout and stderr.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "reactor/engine.hpp"

namespace reactor {

// A command of the program's own, listed beside the built-in ones (the shipped
// `reactor` adds `demo` so).
struct CliCommand {
  std::string name;
  std::string description;
  // Runs the command with the arguments after its name, the top-level options
  // taken out (`storage` is --storage's value, or the default). --help is
  // among `args`, for the command to answer. Returns the exit code.
  std::function<int(const std::string& storage, const std::vector<std::string>& args)> run;
};

struct CliOptions {
  // In usage and messages. Empty: the file name of argv[0].
  std::string program;
  // The first line of --help.
  std::string description = "durable sagas: start, serve and inspect runs";
  // The store when neither --storage nor REACTOR_STORAGE is given.
  std::string default_storage = "sqlite://reactor.db";
  // The engine every command builds on the store: clock, observers and
  // durability (queue_for, context_ttl, ...). Its backend is the store
  // --storage opens; `worker`'s --lease-ttl and --snooze-* override theirs.
  EngineOptions engine;
  // Listed before the built-in ones; a name of theirs is refused
  // (std::invalid_argument).
  std::vector<CliCommand> commands;
};

// Parses argv, runs the command for `engine`'s reactors, and returns the
// process's exit code (above).
int cli_main(Engine& engine, int argc, char** argv, const CliOptions& options = {});

}  // namespace reactor
