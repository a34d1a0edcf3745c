// Claims (MapRow::claim, docs/maps.md): a map's elements released several at a time, each claim
// one run, whose last commit settles all its slots at once — counted one by one, the next claims
// released while the window has room, the map settled and its owner resumed once — on every
// backend.
#include <algorithm>

#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

constexpr const char* kClaimedMap = "r1:sum";

using ClaimJobs = std::vector<std::string>;

template <typename Factory>
class ClaimConformance : public BackendConformance<Factory> {
 protected:
  // Owner r1 (waiting) with map r1:sum of `total` elements in claims of `claim`, the claims
  // holding its first `batch` elements released: each claim's run created, pending or enqueued
  // with its start job.
  MapRow dispatch(std::uint32_t total, std::uint32_t batch, std::uint32_t claim,
                  bool atomic = true) {
    MapRow m = sum_map_row(total, batch, atomic);
    m.claim = claim;
    CommitRequest c;
    c.headers.push_back(header("r1", RunStatus::kWaiting));
    for (std::uint32_t first = 0; first < total; first = claim_end(m, first)) {
      const std::string id = claim_run_id(m, first);
      const bool out = first < batch;
      c.headers.push_back(header(id, out ? RunStatus::kEnqueued : RunStatus::kPending, "r1", id));
      c.headers.back().reactor = "Element";
      if (out) {
        c.enqueue.push_back(job("q", id, 0, JobKind::kStart));
        c.enqueue.back().reactor = "Element";
        m.released = claim_end(m, first);
      }
    }
    c.maps.push_back(m);
    this->commit_ok(c);
    return m;
  }

  // The last commit of the claim holding [first, end): one slot per element, in `state`.
  void settle(std::uint32_t first, std::uint32_t end, SlotState state = SlotState::kCompleted) {
    std::vector<MapSlotRow> slots;
    for (std::uint32_t i = first; i < end; ++i) {
      slots.push_back(MapSlotRow{kClaimedMap, i, state, std::to_string(10 + i)});
    }
    CommitRequest c;
    c.settle = MapSettle{std::move(slots)};
    this->commit_ok(c);
  }

  MapRow map() {
    MapRow m;
    Status s = assign_or_status(m, this->db().load_map(kClaimedMap));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return m;
  }

  RunStatus status_of(const std::string& id) {
    RunHeaderRow h;
    Status s = assign_or_status(h, this->db().load_header(id));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return h.status;
  }

  // Every due job, fetched and acknowledged: its run id (a resume's prefixed "resume "), in
  // fetch order.
  ClaimJobs drain() {
    ClaimJobs out;
    for (const JobSpec& j : this->drain_queue("q")) {
      out.push_back((j.kind == JobKind::kResume ? "resume " : "") + j.run_id);
    }
    return out;
  }
};
TYPED_TEST_SUITE(ClaimConformance, ConformanceBackends, BackendName);

// The ids are the records' own (no store): one test, not one per backend.
TEST(ClaimRunIds, AClaimRunIsNamedByItsFirstAndLastElement) {
  MapRow m;
  m.map_id = kClaimedMap;
  m.total = 10;
  m.claim = 4;
  EXPECT_EQ(claim_run_id(m, 5), "r1:sum[4..7]");
  EXPECT_EQ(claim_of(m, 5).first, 4u);
  EXPECT_EQ(claim_of(m, 9).last, 9u);
  EXPECT_EQ(claim_end(m, 5), 8u);
  EXPECT_EQ(claim_run_id(m, 9), "r1:sum[8..9]");
  EXPECT_EQ(claim_end(m, 8), 10u);
  m.claim = 1;
  EXPECT_EQ(claim_run_id(m, 5), "r1:sum[5]");
  EXPECT_EQ(claim_end(m, 5), 6u);
  std::optional<ClaimOf> of = parse_claim_run_id("r1:sum[4..7]");
  ASSERT_TRUE(of);
  EXPECT_EQ(of->map_id, "r1:sum");
  EXPECT_EQ(of->first, 4u);
  EXPECT_EQ(of->last, 7u);
  ASSERT_TRUE(parse_claim_run_id("r1:sum[9..9]"));
  EXPECT_EQ(parse_claim_run_id("r1:sum[9..9]")->last, 9u);
  for (const char* no :
       {"r1:sum[5]", "r1:sum[7..4]", "r1:sum[..4]", "r1:sum[4..]", "r1sum[4..7]"}) {
    EXPECT_FALSE(parse_claim_run_id(no)) << no;
  }
}

// Each claim's settle files its slots and releases the next claim whole; the last settles the
// map and resumes the owner once.
TYPED_TEST(ClaimConformance, AClaimsSettleFilesEverySlotAndReleasesTheNextClaim) {
  this->dispatch(10, 4, 4);
  EXPECT_EQ(this->map().claim, 4u);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[0..3]"});
  EXPECT_EQ(this->status_of("r1:sum[4..7]"), RunStatus::kPending);
  this->settle(0, 4);
  MapRow m = this->map();
  EXPECT_EQ(m.done, 4u);
  EXPECT_EQ(m.released, 8u);
  EXPECT_EQ(this->status_of("r1:sum[4..7]"), RunStatus::kEnqueued);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[4..7]"});
  this->settle(4, 8);
  EXPECT_EQ(this->map().released, 10u);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[8..9]"});
  this->settle(8, 10);
  m = this->map();
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.done, 10u);
  EXPECT_EQ(this->drain(), ClaimJobs{"resume r1"});
  std::vector<MapSlotRow> slots;
  ASSERT_OK_AND_ASSIGN(slots, this->db().load_map_slots(kClaimedMap, 0, 20));
  ASSERT_EQ(slots.size(), 10u);
  for (std::uint32_t i = 0; i < 10; ++i) {
    EXPECT_EQ(slots[i].index, i);
    EXPECT_EQ(slots[i].body, std::to_string(10 + i));
  }
}

// The window is counted in elements: a claim is released once fewer than batch_size elements
// are out, so between batch_size and batch_size + claim - 1 are out at once.
TYPED_TEST(ClaimConformance, ClaimsAreReleasedWhileFewerThanBatchSizeElementsAreOut) {
  this->dispatch(20, 6, 4);
  EXPECT_EQ(this->map().released, 8u);
  EXPECT_EQ(this->drain(), (ClaimJobs{"r1:sum[0..3]", "r1:sum[4..7]"}));
  this->settle(4, 8);  // 4 out: room for one claim
  EXPECT_EQ(this->map().released, 12u);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[8..11]"});
  this->settle(8, 10);  // half a claim reported: 6 out, no room
  EXPECT_EQ(this->map().released, 12u);
  EXPECT_EQ(this->drain(), ClaimJobs{});
  this->settle(0, 4);  // 2 out: room for one claim, then 6 out
  EXPECT_EQ(this->map().released, 16u);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[12..15]"});
}

// M3 for claims: a claim run twice (its worker lost after its commit) writes its slots again;
// no count moves, nothing more is released, the owner is resumed once.
TYPED_TEST(ClaimConformance, AClaimSettledAgainCountsOnce) {
  this->dispatch(6, 3, 3);
  this->drain();
  this->settle(0, 3);
  EXPECT_EQ(this->drain(), ClaimJobs{"r1:sum[3..5]"});
  this->settle(0, 3);
  EXPECT_EQ(this->map().done, 3u);
  EXPECT_EQ(this->drain(), ClaimJobs{});
  this->settle(3, 6);
  this->settle(3, 6);
  const MapRow m = this->map();
  EXPECT_EQ(m.done, 6u);
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(this->drain(), ClaimJobs{"resume r1"});
}

// A failed element in a claim of an atomic map stops the releases; the map settles once the
// claims out report.
TYPED_TEST(ClaimConformance, AFailureInAClaimOfAnAtomicMapStopsReleasing) {
  this->dispatch(12, 8, 4);
  this->drain();
  std::vector<MapSlotRow> slots;
  for (std::uint32_t i = 0; i < 4; ++i) {
    slots.push_back(
        MapSlotRow{kClaimedMap, i, i == 1 ? SlotState::kFailed : SlotState::kCompleted, "1"});
  }
  CommitRequest c;
  c.settle = MapSettle{std::move(slots)};
  this->commit_ok(c);
  MapRow m = this->map();
  EXPECT_EQ(m.state, MapState::kFailing);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(m.released, 8u);
  EXPECT_EQ(this->drain(), ClaimJobs{});
  this->settle(4, 8);
  m = this->map();
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(this->status_of("r1:sum[8..11]"), RunStatus::kPending);  // never started
  EXPECT_EQ(this->drain(), ClaimJobs{"resume r1"});
}

// The next claim, cancelled before its release (its owner failing): its elements count as
// released and reported, and the map settles once the claims out report.
TYPED_TEST(ClaimConformance, ACancelledClaimCountsAsReleasedAndReported) {
  this->dispatch(8, 4, 4);
  this->drain();
  this->settle(4, 8, SlotState::kCancelled);
  MapRow m = this->map();
  EXPECT_EQ(m.state, MapState::kFailing);
  EXPECT_EQ(m.released, 8u);
  EXPECT_EQ(m.cancelled, 4u);
  EXPECT_EQ(this->drain(), ClaimJobs{});
  this->settle(0, 4);
  EXPECT_EQ(this->map().state, MapState::kSettled);
  EXPECT_EQ(this->drain(), ClaimJobs{"resume r1"});
}

// What a claimed element's undos need (its steps) reads back with its slot, and a slot written
// again replaces it.
TYPED_TEST(ClaimConformance, AClaimedElementsStepsReadBackWithItsSlot) {
  this->dispatch(2, 2, 2);
  std::vector<MapSlotRow> slots{MapSlotRow{kClaimedMap, 0, SlotState::kCompleted, "1"},
                                MapSlotRow{kClaimedMap, 1, SlotState::kFailed, R"({"m":1})"}};
  slots[0].steps = R"([{"name":"charge","status":"completed","result":"a \"b\""}])";
  CommitRequest c;
  c.settle = MapSettle{slots};
  this->commit_ok(c);
  std::vector<MapSlotRow> read;
  ASSERT_OK_AND_ASSIGN(read, this->db().load_map_slots(kClaimedMap, 0, 2));
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].steps, slots[0].steps);
  EXPECT_EQ(read[0].body, "1");
  EXPECT_EQ(read[1].steps, "");
  EXPECT_EQ(read[1].body, R"({"m":1})");
  slots[0].state = SlotState::kUndone;
  slots[0].steps.clear();
  c.settle = MapSettle{std::vector<MapSlotRow>{slots[0]}};
  this->commit_ok(c);
  ASSERT_OK_AND_ASSIGN(read, this->db().load_map_slots(kClaimedMap, 0, 1));
  EXPECT_EQ(read.at(0).steps, "");
  EXPECT_EQ(read.at(0).state, SlotState::kUndone);
  EXPECT_EQ(this->map().undone, 1u);
}

// A settle's slots are applied in order: an index written twice in one settle is counted once,
// in the state of its last write, and read back once.
TYPED_TEST(ClaimConformance, AnIndexWrittenTwiceInOneSettleCountsOnce) {
  this->dispatch(4, 4, 2);
  std::vector<MapSlotRow> slots{MapSlotRow{kClaimedMap, 0, SlotState::kCompleted, "1"},
                                MapSlotRow{kClaimedMap, 1, SlotState::kCompleted, "2"},
                                MapSlotRow{kClaimedMap, 0, SlotState::kUndone, "1"}};
  CommitRequest c;
  c.settle = MapSettle{slots};
  this->commit_ok(c);
  const MapRow m = this->map();
  EXPECT_EQ(m.done, 2u);
  EXPECT_EQ(m.undone, 1u);
  std::vector<MapSlotRow> read;
  ASSERT_OK_AND_ASSIGN(read, this->db().load_map_slots(kClaimedMap, 0, 4));
  ASSERT_EQ(read.size(), 2u);
  EXPECT_EQ(read[0].state, SlotState::kUndone);
  EXPECT_EQ(read[1].body, "2");
}

// A settle is of one map; a map's claim is at least one element.
TYPED_TEST(ClaimConformance, ASettleOfTwoMapsAndAClaimOfNoElementsAreRefused) {
  this->dispatch(4, 4, 2);
  CommitRequest two;
  two.settle =
      MapSettle{std::vector<MapSlotRow>{MapSlotRow{kClaimedMap, 0, SlotState::kCompleted, "1"},
                                        MapSlotRow{"r1:other", 0, SlotState::kCompleted, "1"}}};
  EXPECT_EQ(this->db().commit(two).code(), StatusCode::kInvalidArgument);
  CommitRequest none;
  none.settle = MapSettle{std::vector<MapSlotRow>{}};
  EXPECT_EQ(this->db().commit(none).code(), StatusCode::kInvalidArgument);
  CommitRequest zero;
  zero.maps.push_back(this->map());
  zero.maps.back().map_id = "r1:other";
  zero.maps.back().claim = 0;
  EXPECT_EQ(this->db().commit(zero).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(this->map().done, 0u);
}

}  // namespace
}  // namespace reactor::conformance
