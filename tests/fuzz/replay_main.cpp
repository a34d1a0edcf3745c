// Replays the fuzz corpora (tests/data/fuzz/<target>/) through the same entry points as the
// libFuzzer binaries, without libFuzzer: built by every build (g++ or clang), run by ctest as
// fuzz_replay_<target>, so the release and the ASan stages hold every finding fixed.
//
//   reactor_fuzz_replay TARGET DIR|FILE...
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "fuzz_targets.hpp"

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: %s TARGET DIR|FILE...\n", argv[0]);
    return 2;
  }
  const reactor::fuzz::Target* target = reactor::fuzz::find_target(argv[1]);
#ifdef REACTOR_FUZZ_ENGINE_TARGETS
  if (target == nullptr) target = reactor::fuzz::find_engine_target(argv[1]);
#endif
  if (target == nullptr) {
    std::fprintf(stderr, "no fuzz target '%s'\n", argv[1]);
    return 2;
  }
  std::vector<std::filesystem::path> inputs;
  for (int i = 2; i < argc; ++i) {
    const std::filesystem::path p(argv[i]);
    if (std::filesystem::is_directory(p)) {
      for (const auto& entry : std::filesystem::directory_iterator(p)) {
        if (entry.is_regular_file()) inputs.push_back(entry.path());
      }
    } else {
      inputs.push_back(p);
    }
  }
  std::sort(inputs.begin(), inputs.end());
  if (inputs.empty()) {
    std::fprintf(stderr, "no inputs for %s\n", argv[1]);
    return 1;
  }
  for (const auto& path : inputs) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    std::fprintf(stderr, "%s\n", path.filename().c_str());  // the one a crash stopped at
    target->entry(text.str());
  }
  std::printf("%s: %zu inputs replayed, no finding\n", target->name, inputs.size());
  return 0;
}
