// The Lua scripts of the Redis backend. Each one is a whole Backend operation
// that touches more than one key, so Redis runs it atomically: no other
// client's command runs in between. Each one is a file beside this header,
// scripts/<name>-<numKeys>.lua (<name> is script_name(), <numKeys> how many
// KEYS it takes, as BullMQ names its scripts), whose header documents its
// keys, arguments and reply; the helpers they share are in scripts/includes/,
// pulled into a script by its `--- @include` lines. The build embeds every
// script with its includes resolved (cmake/embed_lua.cmake); the key layout
// they share is documented in docs/redis.md.
//
// Calling convention (script_keys()): KEYS[1] is the store's key prefix, from
// which a script derives the keys it only knows at run time (a popped job's,
// its run's, an index by status); KEYS[2...] are the store-wide keys it
// touches by name (`runs`, `reactors`, ...), then the keys its caller knows
// for this call (a root's meta and rows, a lease's hash). A prefix carrying a
// hash tag (`{shop}:`) gives every key, declared or derived, the same slot,
// so the scripts run on a Redis Cluster. Every script reads the server's
// clock (TIME) itself, so expiry is judged by one clock however far the
// workers' clocks drift.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

namespace reactor::redis {

enum class ScriptId {
  kInit,                   // records the layout version; returns the stored one
  kCommit,                 // fence check + rows + jobs + maps + coordination + ack + lease release
  kStepCommit,             // the commit of one step of a running root: fence, header, steps, trace
  kFetch,                  // fetch-and-lease the oldest due job, and the run's lease when free
  kCommitThenFetch,        // commit, then fetch, in one call (a worker's last commit of a run)
  kFinishCommit,           // the commit that ends a root: fence, header, steps, trace, ack, release
  kFinishCommitThenFetch,  // finish commit, then fetch, in one call
  kCreateRuns,             // the commit that starts runs: root headers, inputs, one job each
  kReleaseJob,             // a delivered job back to the queue, due after a delay
  kAcquireLease,           // also the sweepers' window claims
  kExtendLease,
  kReleaseLease,
  kPeekLease,   // a lease as it stands, taking nothing
  kSeizeLease,  // a lease taken whoever holds it (an operator's cancel)
  kLoadHeader,
  kListRuns,
  kCountRuns,  // how many roots match a status and a reactor
  kFindOrphans,
  kPurgeExpired,
  kUpsertSchedule,  // a schedule's record; the last period fired kept
  kListSchedules,
  kMarkScheduleFired,  // the last period fired moves up, never back
  kTakeHolds,          // one take of coordination: fence, ordered gates, periods, rates, holds
  kCoordination,       // live holders, rate windows, period marks, ordered chains
  kOrderedChain,       // an operator's call on an ordered chain: peek, skip its head, reset
  kQueueStats,         // jobs per queue: ready, delayed, in flight, the oldest due
};

const std::vector<ScriptId>& all_scripts();
const char* script_name(ScriptId id);
// The complete source, as embedded at build time: the script's shebang (`#!lua`,
// which holds it to its declared keys), the line `-- reactor: <name>`,
// then scripts/<name>.lua with its includes resolved (each included file's text
// in place of its `--- @include` line, once, after the files it includes).
// Throws std::logic_error if the build embedded no script of that name.
const std::string& script_source(ScriptId id);
// How many KEYS `id` takes: the <numKeys> of its file's name.
std::size_t script_num_keys(ScriptId id);
// The KEYS of a call of `id`: `prefix`, the store-wide keys `id` touches by
// name, then `known` (the keys this call knows, as names after the prefix,
// e.g. "{<root>}:meta"), each with `prefix` in front.
std::vector<std::string> script_keys(ScriptId id, const std::string& prefix,
                                     const std::vector<std::string>& known = {});

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
