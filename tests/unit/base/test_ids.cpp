#include <gtest/gtest.h>

#include <chrono>
#include <cstdint>
#include <regex>
#include <set>
#include <string>
#include <thread>
#include <vector>

#include "reactor/engine.hpp"

namespace reactor {
namespace {

TEST(NewRunIdTest, IsALowercaseVersion7Uuid) {
  const std::regex v7("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
  for (int i = 0; i < 1000; ++i) {
    const std::string id = new_run_id();
    ASSERT_TRUE(std::regex_match(id, v7)) << id;
  }
}

// The Unix milliseconds an id's first 48 bits hold.
std::int64_t id_unix_ms(const std::string& id) {
  return std::stoll(id.substr(0, 8) + id.substr(9, 4), nullptr, 16);
}

std::int64_t wall_unix_ms() {
  return std::chrono::duration_cast<std::chrono::milliseconds>(
             std::chrono::system_clock::now().time_since_epoch())
      .count();
}

TEST(NewRunIdTest, BeginsWithTheTimeItWasMadeSoLaterIdsSortLater) {
  const std::int64_t before = wall_unix_ms();
  std::vector<std::string> ids;
  for (int i = 0; i < 1000; ++i) ids.push_back(new_run_id());
  const std::int64_t after = wall_unix_ms();
  for (std::size_t i = 0; i < ids.size(); ++i) {
    ASSERT_GE(id_unix_ms(ids[i]), before) << ids[i];
    ASSERT_LE(id_unix_ms(ids[i]), after) << ids[i];
    // Made in a later millisecond, an id sorts after every id made before it.
    if (i > 0 && id_unix_ms(ids[i]) > id_unix_ms(ids[i - 1])) {
      ASSERT_GT(ids[i], ids[i - 1]);
    }
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
