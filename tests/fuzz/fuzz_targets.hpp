// The fuzz targets of the record decoders (tests/fuzz/README.md): one entry point per decoder,
// shared by the libFuzzer binaries (fuzz_main.cpp, built with clang under REACTOR_BUILD_FUZZERS)
// and the corpus replay that every build runs (replay_main.cpp, reactor_fuzz_replay in ctest).
//
// Each entry reads one input as a stored record (or a user's JSON) the way the engine does. An
// input the decoder refuses (RecordError, std::invalid_argument, a JSON parse error) is fine;
// what is read must write back and read again to the same text. Anything else — another
// exception, a crash, a sanitizer report, a round trip that differs — is a finding: the entry
// aborts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string_view>

namespace reactor::fuzz {

using Entry = void (*)(std::string_view input);

struct Target {
  const char* name;  // also its corpus directory, tests/data/fuzz/<name>/
  Entry entry;
};

// Every target, by name.
const Target* targets();
std::size_t target_count();
const Target* find_target(std::string_view name);

}  // namespace reactor::fuzz
