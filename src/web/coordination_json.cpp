// The JSON of what the store holds for coordination: `reactor locks --json` and the dashboard's
// /api/coordination answer the same shape.
#include "web/coordination_json.hpp"

#include <algorithm>

namespace reactor::web {

Value chain_json(const OrderedChainRow& c) {
  Value members = Value::array();
  for (const OrderedMember& m : c.members)
    members.push_back({{"seq", m.seq}, {"run_id", m.run_id}});
  return Value{{"key", c.key},
               {"next_seq", c.next_seq},
               {"failed", c.failed},
               {"failed_run", c.failed_run},
               {"members", members}};
}

Value coordination_json(const CoordinationView& v) {
  Value holds = Value::array(), windows = Value::array(), periods = Value::array(),
        chains = Value::array();
  for (const HoldRow& h : v.holds) {
    holds.push_back({{"key", h.key},
                     {"kind", to_string(h.kind)},
                     {"limit", h.limit},
                     {"held", h.holders.size()},
                     {"available", std::max<int>(0, h.limit - static_cast<int>(h.holders.size()))},
                     {"holders", h.holders},
                     {"claims", h.claims}});
  }
  for (const RateWindowRow& w : v.rate_windows) {
    windows.push_back({{"key", w.key},
                       {"window_ms", w.window_ms},
                       {"bucket_start_ms", w.bucket_start_ms},
                       {"count", w.count}});
  }
  for (const PeriodRow& p : v.periods) periods.push_back({{"mark", p.mark}, {"run_id", p.run_id}});
  for (const OrderedChainRow& c : v.ordered) chains.push_back(chain_json(c));
  return Value{
      {"holds", holds}, {"rate_windows", windows}, {"periods", periods}, {"ordered", chains}};
}

}  // namespace reactor::web
