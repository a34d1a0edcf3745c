// CommitGroups (storage/commit_groups.hpp): a commit alone in line is written at once by its own
// thread; the commits that queue while a group is written go out together in the next, at most
// kMaxGroup at a time, each with its own outcome; a group that throws fails its own commits only.
#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <future>
#include <stdexcept>
#include <thread>
#include <vector>

#include "storage/commit_groups.hpp"

namespace reactor::storage {
namespace {

using namespace std::chrono_literals;

// Waits (bounded) until `n` commits are in line.
bool line_reaches(CommitGroups& groups, std::size_t n) {
  for (int i = 0; i < 2000 && groups.in_line() < n; ++i) std::this_thread::sleep_for(1ms);
  return groups.in_line() == n;
}

// Writes groups as it is told: the first one waits until `release` is set; every commit is
// applied but those `refuse` names; each group's commits are recorded.
class Recorder {
 public:
  explicit Recorder(std::vector<const CommitRequest*> refuse = {}) : refuse_(std::move(refuse)) {}

  CommitGroups::WriteGroup writer() {
    return [this](std::span<GroupedCommit* const> group) {
      if (calls_++ == 0) {
        while (!release.load()) std::this_thread::sleep_for(1ms);
      }
      std::vector<const CommitRequest*> written;
      for (GroupedCommit* g : group) {
        written.push_back(g->commit);
        const bool refused = std::find(refuse_.begin(), refuse_.end(), g->commit) != refuse_.end();
        g->status = refused ? Status::LeaseLost("fenced out (test)") : Status::Ok();
      }
      std::lock_guard lock(mu_);
      groups_.push_back(std::move(written));
    };
  }
  std::vector<std::vector<const CommitRequest*>> groups() {
    std::lock_guard lock(mu_);
    return groups_;
  }

  std::atomic<bool> release{false};

  // Lets the first group go when it leaves its scope, should a test stop early: the writes
  // still out end before what they use goes (declare it after them).
  struct ReleaseAtExit {
    Recorder& r;
    ~ReleaseAtExit() { r.release = true; }
  };

 private:
  std::vector<const CommitRequest*> refuse_;
  std::atomic<int> calls_{0};
  std::mutex mu_;
  std::vector<std::vector<const CommitRequest*>> groups_;
};

TEST(CommitGroups, ACommitAloneIsWrittenAtOnceByItsOwnThread) {
  CommitRequest c;
  GroupedCommit mine{&c};
  std::thread::id writer;
  CommitGroups groups([&](std::span<GroupedCommit* const> group) {
    writer = std::this_thread::get_id();
    ASSERT_EQ(group.size(), 1u);
    EXPECT_EQ(group[0], &mine);
    group[0]->status = Status::Ok();
  });
  groups.write(mine);
  EXPECT_EQ(writer, std::this_thread::get_id());
  EXPECT_TRUE(mine.status.ok());
  EXPECT_EQ(groups.in_line(), 0u);
}

TEST(CommitGroups, CommitsQueuedBehindAGroupGoOutTogetherEachWithItsOwnOutcome) {
  std::vector<CommitRequest> requests(4);
  Recorder recorder({&requests[2]});
  CommitGroups groups(recorder.writer());
  std::vector<GroupedCommit> commits;
  for (auto& r : requests) commits.push_back(GroupedCommit{&r});
  std::future<void> first;
  std::vector<std::future<void>> behind;
  Recorder::ReleaseAtExit at_exit{recorder};
  first = std::async(std::launch::async, [&] { groups.write(commits[0]); });
  ASSERT_TRUE(line_reaches(groups, 1));
  for (std::size_t i = 1; i < commits.size(); ++i) {
    behind.push_back(std::async(std::launch::async, [&, i] { groups.write(commits[i]); }));
    ASSERT_TRUE(line_reaches(groups, i + 1));  // in line in this order
  }
  recorder.release = true;
  first.get();
  for (auto& f : behind) f.get();
  const auto written = recorder.groups();
  ASSERT_EQ(written.size(), 2u);
  EXPECT_EQ(written[0], (std::vector<const CommitRequest*>{&requests[0]}));
  EXPECT_EQ(written[1],
            (std::vector<const CommitRequest*>{&requests[1], &requests[2], &requests[3]}));
  EXPECT_TRUE(commits[0].status.ok());
  EXPECT_TRUE(commits[1].status.ok());
  EXPECT_EQ(commits[2].status.code(), StatusCode::kLeaseLost);  // refused alone
  EXPECT_TRUE(commits[3].status.ok());
  EXPECT_EQ(groups.in_line(), 0u);
}

TEST(CommitGroups, AGroupHoldsAtMostKMaxGroupCommits) {
  const std::size_t behind = CommitGroups::kMaxGroup + 8;
  std::vector<CommitRequest> requests(1 + behind);
  std::vector<GroupedCommit> commits;
  for (auto& r : requests) commits.push_back(GroupedCommit{&r});
  Recorder recorder;
  CommitGroups groups(recorder.writer());
  std::vector<std::future<void>> writes;
  Recorder::ReleaseAtExit at_exit{recorder};
  for (std::size_t i = 0; i < commits.size(); ++i) {
    writes.push_back(std::async(std::launch::async, [&, i] { groups.write(commits[i]); }));
    ASSERT_TRUE(line_reaches(groups, i + 1));
  }
  recorder.release = true;
  for (auto& w : writes) w.get();
  const auto written = recorder.groups();
  ASSERT_EQ(written.size(), 3u);
  EXPECT_EQ(written[0].size(), 1u);
  EXPECT_EQ(written[1].size(), CommitGroups::kMaxGroup);
  EXPECT_EQ(written[2].size(), 8u);
  for (const auto& c : commits) EXPECT_TRUE(c.status.ok());
}

TEST(CommitGroups, AGroupThatThrowsFailsItsOwnCommitsAndTheLineMovesOn) {
  int calls = 0;  // the first group throws, the next is written
  CommitGroups groups([&](std::span<GroupedCommit* const> group) {
    if (calls++ == 0) throw std::runtime_error("disk");
    for (GroupedCommit* g : group) g->status = Status::Ok();
  });
  CommitRequest a, b;
  GroupedCommit first{&a}, second{&b};
  groups.write(first);
  EXPECT_EQ(first.status.code(), StatusCode::kInternal);
  EXPECT_NE(first.status.message().find("disk"), std::string::npos);
  groups.write(second);
  EXPECT_TRUE(second.status.ok());
}

}  // namespace
}  // namespace reactor::storage
