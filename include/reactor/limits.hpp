// Limits on what a run's records may hold. A value past them is refused
// with a clear error when it is written, and a stored record past them is
// corrupt: no worker ever exhausts its stack or its memory on one.
#pragma once

namespace reactor {

// How deep a value (inputs, a step's result, a failure's details) may nest:
// [[…]] is 2 levels. Deep enough for any document a saga passes on; shallow
// enough that reading or writing one never exhausts a thread's stack.
inline constexpr int kMaxValueDepth = 512;

}  // namespace reactor
