#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "reactor/engine.hpp"

namespace reactor {
namespace {

TEST(NewRunIdTest, IsALowercaseVersion4Uuid) {
  const std::regex v4("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  for (int i = 0; i < 1000; ++i) {
    const std::string id = new_run_id();
    ASSERT_TRUE(std::regex_match(id, v4)) << id;
  }
}

TEST(NewRunIdTest, IdsAreUniqueAcrossThreads) {
  constexpr int kThreads = 4;
  constexpr int kIds = 2000;
  std::vector<std::vector<std::string>> per_thread(kThreads);
  std::vector<std::thread> threads;
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&per_thread, t] {
      for (int i = 0; i < kIds; ++i) per_thread[t].push_back(new_run_id());
    });
  }
  for (std::thread& th : threads) th.join();
  std::set<std::string> all;
  for (const auto& ids : per_thread) all.insert(ids.begin(), ids.end());
  EXPECT_EQ(all.size(), static_cast<std::size_t>(kThreads * kIds));
}

}  // namespace
}  // namespace reactor
