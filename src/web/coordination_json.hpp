// The JSON shape of a CoordinationView (reactor/hold_store.hpp), shared by `reactor locks --json`
// and the dashboard's /api/coordination (docs/observability.md, "The JSON API").
#pragma once

#include "reactor/hold_store.hpp"
#include "reactor/value.hpp"

namespace reactor::web {

// {"holds": [{key, kind, limit, held, available, holders, claims}], "rate_windows": [...],
//  "periods": [{mark, run_id}], "ordered": [{key, next_seq, failed, failed_run, members}]}
Value coordination_json(const CoordinationView& v);
Value chain_json(const OrderedChainRow& c);

}  // namespace reactor::web
