// The fuzz targets of the record decoders (tests/fuzz/README.md): one entry point per decoder
// and per reader of a map's slot, shared by the libFuzzer binaries (fuzz_main.cpp, built with
// clang under REACTOR_BUILD_FUZZERS) and the corpus replay that every build runs
// (replay_main.cpp, reactor_fuzz_replay in ctest); and one whole delivery over a slot
// (fuzz_delivery.cpp), in the replay only.
//
// Each entry reads one input as a stored record (or a user's JSON) the way the engine does. An
// input the decoder refuses (RecordError, std::invalid_argument, a JSON parse error) is fine;
// what is read must write back and read again to the same text. Anything else — another
// exception, a crash, a sanitizer report, a round trip that differs — is a finding: the entry
// aborts. `delivery` instead delivers a map's owner over its input as a slot: the owner must
// end, failed as a corrupt record when (and, but for a failed slot, only when) the slot's
// reader refuses it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "reactor/records.hpp"

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

// The targets that run the engine itself (fuzz_delivery.cpp): in reactor_fuzz_replay only, where
// REACTOR_FUZZ_ENGINE_TARGETS is defined (the libFuzzer core is the decoders' layers alone).
const Target* find_engine_target(std::string_view name);

// Reports a finding on stderr and aborts.
[[noreturn]] void finding(const char* what, const std::string& detail = {});

// A slot target's input as a slot of map `map_id`: byte 0 picks its state (mod 4: completed,
// failed, halted, undone), the rest is its body, the text an element's last commit wrote.
MapSlotRow slot_input(std::string_view input, const std::string& map_id);
// Whether a map's owner refuses `slot` (decode_slot_body throws RecordError); any other
// exception is a finding.
bool slot_unreadable(const MapSlotRow& slot);

}  // namespace reactor::fuzz
