// How a Run tree maps onto durable records: one small header per run (the
// root and each composed child or map element), its inputs once, one row per
// step, and the root's trace as appended rows. A checkpoint encodes only what
// its CheckpointDelta names, so its size does not grow with the run.
#pragma once

#include "reactor/backend.hpp"
#include "reactor/checkpoint.hpp"
#include "reactor/run.hpp"

namespace reactor {

// Every record of a new run (headers, inputs, all step rows, trace).
void encode_whole_run(const Run& root, std::int64_t expires_at_ms, CommitRequest& out);

// The records named by `delta`, with trace rows from delta.trace_begin on.
// A header in the delta that belongs to a run created since the last
// checkpoint brings its inputs and step rows along.
void encode_delta(const Run& root, const CheckpointDelta& delta, std::int64_t expires_at_ms,
                  CommitRequest& out);

// The header row of one run.
RunHeaderRow encode_header(const Run& run, std::int64_t expires_at_ms);

// One run's header alone (no inputs, steps or trace): enough to rewrite its
// status. Throws std::invalid_argument for an unreadable or too new record.
Run decode_header(const RunHeaderRow& row);

// Rebuilds the tree. Corruption (naming the record) when a row cannot be
// read or its schema version is newer than this build knows.
Status decode_run(const StoredRun& stored, Run& out);

// The root's header alone (no inputs, steps, children or trace): what can
// still be read of a run whose other records cannot. Corruption if not even
// that can be.
Status decode_root_header(const StoredRun& stored, Run& out);

}  // namespace reactor
