// MapStore: the records of fan-out maps, read back — one facet of a Backend
// (backend.hpp), where they are written by Backend::commit (CommitRequest::maps,
// CommitRequest::settle). Layouts: docs/maps.md, docs/storage.md, docs/redis.md.
//
// Thread safety: safe to call from any number of threads at once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reactor/records.hpp"
#include "reactor/result.hpp"
#include "reactor/status.hpp"
#include "reactor/value.hpp"

namespace reactor {

class MapStore {
 public:
  virtual ~MapStore() = default;

  // The map's row as the last commit left it. NotFound when there is none.
  virtual Result<MapRow> load_map(const std::string& map_id) = 0;
  // The slots present among indices [first, first + limit), in index order:
  // what a collector reads page by page, never all at once.
  virtual Result<std::vector<MapSlotRow>> load_map_slots(const std::string& map_id,
                                                         std::uint32_t first,
                                                         std::uint32_t limit) = 0;
  // Blocks until map `map_id` is settled or `max_wait` has passed; returns
  // whether it is settled (read from the store after the wait is armed, so a settle
  // committed by any process — before the call or during it — is never
  // missed). Woken by the commit that settles the map, on every backend:
  // memory (a condition variable), SQLite (a wake file the settling commit
  // touches after its transaction, watched with inotify), Redis (a blocking
  // pop, BLMOVE, on a list the settle script pushes to; the token is put back
  // for other waiters). NotFound when the map does not exist. `max_wait` is
  // real time on every backend.
  virtual Result<bool> wait_for_settle(const std::string& map_id, Duration max_wait) = 0;
};

}  // namespace reactor
