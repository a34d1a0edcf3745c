// One libFuzzer binary per target (REACTOR_BUILD_FUZZERS; tests/fuzz/README.md): the target's
// name is compiled in as REACTOR_FUZZ_TARGET.
#include <cstdlib>

#include "fuzz_targets.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  static const reactor::fuzz::Target* target = reactor::fuzz::find_target(REACTOR_FUZZ_TARGET);
  if (target == nullptr) std::abort();
  target->entry(std::string_view(reinterpret_cast<const char*>(data), size));
  return 0;
}
