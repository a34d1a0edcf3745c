#include "storage/redis/wire.hpp"

#include <algorithm>
#include <charconv>
#include <map>
#include <stdexcept>
#include <string_view>
#include <type_traits>

#include "records/codec.hpp"
#include "records/fields.hpp"
#include "records/names.hpp"
#include "storage/redis/reply.hpp"
#include "storage/storage_time.hpp"

namespace reactor::redis {

namespace {

// A field name of a run's rows hash that this build cannot read: the stored run is corrupt (a
// stored record, not the server's reply, is wrong), and delivering it again will not help.
struct BadField : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// Splits a step field "<run id>#<index>".
void parse_step_field(std::string_view field, std::string& run_id, std::uint32_t& index) {
  const auto hash = field.rfind('#');
  if (hash == std::string_view::npos) throw BadField("step field 's:" + std::string(field) + "'");
  const char* first = field.data() + hash + 1;
  const char* last = field.data() + field.size();
  auto [end, ec] = std::from_chars(first, last, index);
  if (ec != std::errc() || end != last) {
    throw BadField("step field 's:" + std::string(field) + "'");
  }
  run_id.assign(field.substr(0, hash));
}

std::uint64_t parse_seq(std::string_view seq) {
  std::uint64_t n = 0;
  auto [end, ec] = std::from_chars(seq.data(), seq.data() + seq.size(), n);
  if (ec != std::errc() || end != seq.data() + seq.size()) {
    throw BadField("trace field 't:" + std::string(seq) + "'");
  }
  return n;
}

}  // namespace

Status decode_header(const std::string& what, const std::string& text, RunHeaderRow& h) {
  try {
    h = records::decode_header_record(text);
  } catch (const std::exception& e) {
    return Status::Corruption(what + ": " + e.what());
  }
  return Status::Ok();
}

Status decode_headers(const redisReply& list, std::vector<RunHeaderRow>& out) {
  if (list.type != REDIS_REPLY_ARRAY) throw BadReply("expected a list of headers");
  for (std::size_t i = 0; i < list.elements; ++i) {
    RunHeaderRow h;
    if (decode_header("a listed run header", text(*list.element[i]), h).ok()) {
      out.push_back(std::move(h));
    }
  }
  return Status::Ok();
}

std::string wake_key(const std::string& prefix, const std::string& queue) {
  return prefix + "wake:" + queue;
}
std::string run_jobs_key(const std::string& prefix, const std::string& run_id) {
  return prefix + root_key(run_id, "jobs");
}
std::string root_key(const std::string& root, std::string_view what) {
  return "{" + root + "}:" + std::string(what);
}
std::string lease_key(const std::string& key) {
  if (key.starts_with("run:")) return root_key(key.substr(4), "meta");
  return "lease:" + key;
}

namespace {

// The tag of a map's keys: the root a caller started whose tree holds it, the part of the map
// id before its first ':' (includes/keys.lua, tree_root()).
std::string map_tag(const std::string& prefix, const std::string& map_id) {
  return prefix + "{" + map_id.substr(0, map_id.find(':')) + "}:";
}

}  // namespace

std::string map_key(const std::string& prefix, const std::string& map_id) {
  return map_tag(prefix, map_id) + "map:" + map_id;
}
std::string map_slots_key(const std::string& prefix, const std::string& map_id) {
  return map_tag(prefix, map_id) + "slots:" + map_id;
}
std::string map_settled_key(const std::string& prefix, const std::string& map_id) {
  return map_tag(prefix, map_id) + "settled:" + map_id;
}

std::string queue_set(const std::vector<std::string>& queues) {
  std::string key;
  for (const auto& q : queues) {
    key += q;
    key += '\n';
  }
  return key;
}

namespace {

// A run's rows as its rows hash holds them, by kind (h:, i:, s:, t:), in no order.
struct RowsByKind {
  std::vector<RunHeaderRow> headers;
  std::vector<RunInputsRow> inputs;
  std::vector<StepRow> steps;
  std::vector<TraceRow> trace;
};

// The rows of a rows hash (its field/value list). Corruption for a field name this build does
// not write, or for the first header that does not parse (the others are read all the same).
Status collect_rows(const std::string& root_id, const redisReply& list, RowsByKind& rows) {
  Status decoded;
  try {
    for_each_field(list, [&](std::string field, std::string value) {
      if (field.size() < 2) throw BadField("field '" + field + "'");
      const std::string_view name = std::string_view(field).substr(2);
      const std::string_view kind = std::string_view(field).substr(0, 2);
      if (kind == "h:") {
        RunHeaderRow h;
        Status d = decode_header("run header " + std::string(name), value, h);
        if (d.ok()) {
          rows.headers.push_back(std::move(h));
        } else if (decoded.ok()) {
          decoded = d;
        }
      } else if (kind == "i:") {
        rows.inputs.push_back({std::string(name), std::move(value)});
      } else if (kind == "s:") {
        StepRow row;
        parse_step_field(name, row.run_id, row.index);
        row.body = std::move(value);
        rows.steps.push_back(std::move(row));
      } else if (kind == "t:") {
        rows.trace.push_back({root_id, parse_seq(name), std::move(value)});
      } else {
        throw BadField("field '" + field + "'");
      }
    });
  } catch (const BadField& e) {
    return Status::Corruption("run " + root_id + ": its rows hold a malformed " + e.what());
  }
  return decoded;
}

// `rows` in load_run's order into `out`: the root first, then its descendants by id; inputs and
// steps in that order (those of runs without a header dropped), trace by seq. NotFound when the
// rows hold no header of a root of that id.
Status order_rows(const std::string& root_id, RowsByKind rows, StoredRun& out) {
  std::vector<RunHeaderRow>& headers = rows.headers;
  auto root = std::find_if(headers.begin(), headers.end(),
                           [&](const RunHeaderRow& h) { return h.id == root_id; });
  // A run with records of its own is its own root: a root a caller started, or the element run
  // of a fan-out map. A child's id finds no header of its own here.
  if (root == headers.end() || root->root_id != root->id) {
    return Status::NotFound("run " + root_id + " not found");
  }
  std::iter_swap(headers.begin(), root);
  std::sort(headers.begin() + 1, headers.end(),
            [](const RunHeaderRow& a, const RunHeaderRow& b) { return a.id < b.id; });
  std::map<std::string, std::size_t, std::less<>> position;
  for (std::size_t i = 0; i < headers.size(); ++i) position[headers[i].id] = i;
  const auto known = [&](const std::string& run_id) { return position.count(run_id) > 0; };
  std::erase_if(rows.inputs, [&](const RunInputsRow& row) { return !known(row.run_id); });
  std::erase_if(rows.steps, [&](const StepRow& row) { return !known(row.run_id); });
  std::sort(rows.inputs.begin(), rows.inputs.end(),
            [&](const RunInputsRow& a, const RunInputsRow& b) {
              return position[a.run_id] < position[b.run_id];
            });
  std::sort(rows.steps.begin(), rows.steps.end(), [&](const StepRow& a, const StepRow& b) {
    return std::make_pair(position[a.run_id], a.index) <
           std::make_pair(position[b.run_id], b.index);
  });
  std::sort(rows.trace.begin(), rows.trace.end(),
            [](const TraceRow& a, const TraceRow& b) { return a.seq < b.seq; });
  out.headers = std::move(headers);
  out.inputs = std::move(rows.inputs);
  out.steps = std::move(rows.steps);
  out.trace = std::move(rows.trace);
  return Status::Ok();
}

}  // namespace

Status read_stored_run(const std::string& root_id, const redisReply& r, StoredRun& out) {
  RowsByKind rows;
  if (Status s = collect_rows(root_id, element(r, 0), rows); !s.ok()) return s;
  StoredRun run;
  if (Status s = order_rows(root_id, std::move(rows), run); !s.ok()) return s;
  const redisReply& token = element(r, 1);  // nil: the run never had a lease
  run.fencing_token =
      token.type == REDIS_REPLY_NIL ? 0 : static_cast<std::uint64_t>(integer(token));
  out = std::move(run);
  return Status::Ok();
}

void append_fetch_args(const FetchRequest& f, std::vector<std::string>& args) {
  args.push_back(f.owner);
  args.push_back(std::to_string(storage::to_ms(f.visibility)));
  args.push_back(std::to_string(storage::to_ms(f.run_lease_ttl)));
  args.emplace_back(to_string(RunStatus::kEnqueued));
  args.emplace_back(to_string(RunStatus::kRunning));
  args.push_back(f.worker);
  args.insert(args.end(), f.queues.begin(), f.queues.end());
}

namespace {

// A record's fields read back from a hash of them, spelled as ArgsWriter (script_args.hpp)
// spells them. Throws
// BadField for a field missing or unreadable.
class HashReader {
 public:
  explicit HashReader(const std::map<std::string, std::string, std::less<>>& hash) : hash_(hash) {}
  template <typename T>
  void operator()(std::string_view key, T& out) {
    const auto it = hash_.find(key);
    if (it == hash_.end()) throw BadField("no field '" + std::string(key) + "'");
    const std::string& text = it->second;
    if constexpr (std::is_same_v<T, std::string>) {
      out = text;
    } else if constexpr (std::is_same_v<T, bool>) {
      if (text != "0" && text != "1") wrong(key, text);
      out = text == "1";
    } else if constexpr (std::is_enum_v<T>) {
      try {
        records::from_name(text, out);
      } catch (const std::invalid_argument&) {
        wrong(key, text);
      }
    } else {
      static_assert(std::is_integral_v<T>);
      auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
      if (ec != std::errc() || end != text.data() + text.size()) wrong(key, text);
    }
  }
  // A field added in a later layout: absent, `out` keeps its default.
  template <typename T>
  void optional(std::string_view key, T& out) {
    if (hash_.find(key) != hash_.end()) (*this)(key, out);
  }

 private:
  [[noreturn]] static void wrong(std::string_view key, const std::string& text) {
    throw BadField("field '" + std::string(key) + "' = '" + text + "'");
  }

  const std::map<std::string, std::string, std::less<>>& hash_;
};

}  // namespace

Status read_map(const std::string& map_id, const redisReply& r, MapRow& out) {
  std::map<std::string, std::string, std::less<>> hash;
  for_each_field(r, [&](std::string field, std::string value) {
    hash.emplace(std::move(field), std::move(value));
  });
  if (hash.empty()) return Status::NotFound("map " + map_id + " not found");
  MapRow map;
  try {
    HashReader reader(hash);
    records::fields(map, reader);
  } catch (const BadField& e) {
    return Status::Corruption("map " + map_id + ": its row is unreadable: " + e.what());
  }
  out = std::move(map);
  return Status::Ok();
}

Status read_slots(const std::string& map_id, const redisReply& r, std::vector<MapSlotRow>& out) {
  if (r.type != REDIS_REPLY_ARRAY) throw BadReply("expected a list of slots");
  std::vector<MapSlotRow> slots;
  slots.reserve(r.elements);
  for (std::size_t i = 0; i < r.elements; ++i) {
    try {
      slots.push_back(records::decode_slot_record(text(*r.element[i])));
    } catch (const std::exception& e) {
      return Status::Corruption("map " + map_id + ": a slot: " + e.what());
    }
  }
  out = std::move(slots);
  return Status::Ok();
}

}  // namespace reactor::redis
