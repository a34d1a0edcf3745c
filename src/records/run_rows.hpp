// How a Run tree maps onto durable rows: one small header per run (the root
// and each composed child or map element), its inputs once, one row per step
// that has changed since the run was created, and the root's trace as
// appended rows. A checkpoint writes only the rows it names, so its size does
// not grow with the run.
#pragma once

#include <cstdint>

#include "reactor/records.hpp"
#include "reactor/run.hpp"
#include "reactor/status.hpp"

namespace reactor::records {

// Every row of a run and its descendants (headers, inputs, touched steps).
void encode_tree(const Run& run, std::int64_t expires_at_ms, RunRows& out);
// Every row of a new run tree, its trace included.
void encode_whole_run(const Run& root, std::int64_t expires_at_ms, RunRows& out);
// One run's own rows (header, inputs, touched steps), not its descendants'.
void encode_created(const Run& run, std::int64_t expires_at_ms, RunRows& out);
// The row of step `index` of `run`.
StepRow encode_step_row(const Run& run, std::size_t index);
// The root's trace rows from `begin` on.
void encode_trace_rows(const Run& root, std::size_t begin, RunRows& out);

// Rebuilds the tree. Corruption (naming the run) when a row cannot be read or
// its schema version is newer than this build knows.
Status decode_run(const StoredRun& stored, Run& out);

// The root's header alone (no inputs, steps, children or trace): what can
// still be read of a run whose other records cannot. Corruption if not even
// that can be.
Status decode_root_header(const StoredRun& stored, Run& out);

}  // namespace reactor::records
