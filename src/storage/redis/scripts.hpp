// The Lua scripts of the Redis backend. Each one is a whole Backend operation
// that touches more than one key, so Redis runs it atomically: no other
// client's command runs in between. Each one is a file beside this header,
// scripts/<name>.lua (<name> is script_name()), whose header documents its
// arguments and reply; the helpers they share are in scripts/includes/, pulled
// into a script by its `--- @include` lines. The build embeds every script with its includes
// resolved (cmake/embed_lua.cmake); the key layout they share is documented in
// docs/redis.md.
//
// Calling convention: no KEYS; ARGV[1] is the store's key prefix and every key
// name is built from it inside the script (the job and lease keys a script
// touches are only known once it has read the store). Every script reads the
// server's clock (TIME) itself, so expiry is judged by one clock however far
// the workers' clocks drift.
#pragma once

#include <string>
#include <vector>

namespace reactor::redis {

enum class ScriptId {
  kInit,             // records the layout version; returns the stored one
  kCommit,           // fence check + headers + inputs + steps + trace + jobs + ack + lease release
  kStepCommit,       // the commit of one step of a running root: fence, header, steps, trace
  kFetch,            // fetch-and-lease the oldest due job, and the run's lease when free
  kCommitThenFetch,  // commit, then fetch, in one call (a worker's last commit of a run)
  kFinishCommit,     // the commit that ends a root: fence, header, steps, trace, ack, release
  kFinishCommitThenFetch,  // finish commit, then fetch, in one call
  kCreateRuns,             // the commit that starts runs: root headers, inputs, one job each
  kReleaseJob,             // a delivered job back to the queue, due after a delay
  kAcquireLease,           // also the sweepers' window claims
  kExtendLease,
  kReleaseLease,
  kPeekLease,  // a lease as it stands, taking nothing
  kLoadRun,    // one consistent snapshot of a root run and its children
  kLoadHeader,
  kListRuns,
  kCountRuns,  // how many roots match a status and a reactor
  kFindOrphans,
  kPurgeExpired,
};

const std::vector<ScriptId>& all_scripts();
const char* script_name(ScriptId id);
// The complete source, as embedded at build time: the line `-- reactor: <name>`,
// then scripts/<name>.lua with its includes resolved (each included file's text
// in place of its `--- @include` line, once, after the files it includes).
// Throws std::logic_error if the build embedded no script of that name.
const std::string& script_source(ScriptId id);

// The version of the key layout written by this build (docs/redis.md). 7: a map
// slot may be `cancelled` (an element never run). 6: a header's body counts its
// run's steps and names none (header version 4). 5: a
// header record holds its body inline and its wake time; runs may be waiting.
constexpr int kLayoutVersion = 7;
// The oldest version this build reads as it is: a store of a version from
// here up to kLayoutVersion is recorded as kLayoutVersion when opened, so the
// builds before it refuse the store instead of misreading what this one wrote.
constexpr int kOldestUpgradableLayout = 3;

}  // namespace reactor::redis
