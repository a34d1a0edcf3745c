// How this backend's records and requests look on the wire, shared by its
// facets: header records, the rows of a run as load_run and fetch return
// them, the fetch script's arguments and the keys the C++ side names itself.
#pragma once

#include <hiredis/hiredis.h>

#include <string>
#include <string_view>
#include <vector>

#include "reactor/backend.hpp"

namespace reactor::redis {

// Run headers are stored whole in the rows hash of their root run, as the
// record codec writes a header row (records/codec.hpp). `what` names the
// header in a Corruption message: the text may not say whose it is.
Status decode_header(const std::string& what, const std::string& text, RunHeaderRow& h);

// A header that does not parse is left out of a listing (or a sweep) rather
// than failing it: one bad record must not hide every other run, nor keep
// the sweeper from the other orphans. That run itself is failed with
// corrupt_record when a job delivers it (load_header/load_run report it).
Status decode_headers(const redisReply& list, std::vector<RunHeaderRow>& out);

// The keys the C++ side names itself; the same names as the Lua helpers in
// scripts/includes/keys.lua.
std::string wake_key(const std::string& prefix, const std::string& queue);
std::string run_jobs_key(const std::string& prefix, const std::string& run_id);
// A fan-out map's row (a hash of MapRow's fields) and its slots (a sorted set of slot records by
// index), under the tag of the root whose tree holds the map.
std::string map_key(const std::string& prefix, const std::string& map_id);
std::string map_slots_key(const std::string& prefix, const std::string& map_id);
// The list a settle pushes a token onto, for the callers blocked in wait_for_settle.
std::string map_settled_key(const std::string& prefix, const std::string& map_id);

// Key names after the prefix, as includes/keys.lua and includes/leases.lua build them, for the
// KEYS of a script call that knows them: `what` of a root ("meta", "rows", "jobs"), and the hash
// of a lease (a run's lease, run:<root>, is kept in its root's meta hash).
std::string root_key(const std::string& root, std::string_view what);
std::string lease_key(const std::string& key);

std::string queue_set(const std::vector<std::string>& queues);

// A run's rows from the reply of load_run (or the tail of fetch's): {rows,
// token}, the rows hash as a field/value list (h:<run id> header, i:<run id>
// inputs, s:<run id>#<index> step, t:<seq> trace) and the lease token.
Status read_stored_run(const std::string& root_id, const redisReply& r, StoredRun& out);

// The fetch script's arguments.
void append_fetch_args(const FetchRequest& f, std::vector<std::string>& args);

// A map row from its hash (HGETALL's reply): NotFound when there is none, Corruption when a
// field is missing or unreadable.
Status read_map(const std::string& map_id, const redisReply& r, MapRow& out);

// Slot records (a ZRANGEBYSCORE reply), in index order. Corruption for one that cannot be read.
Status read_slots(const std::string& map_id, const redisReply& r, std::vector<MapSlotRow>& out);

}  // namespace reactor::redis
