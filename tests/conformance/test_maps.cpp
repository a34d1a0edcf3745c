// Fan-out maps (docs/maps.md): the map row, its slots, and what the store does in the commit
// that settles a slot — release the next element, stop after an atomic failure, settle once and
// resume the owner once — on every backend.
#include <algorithm>
#include <future>
#include <thread>
#include <type_traits>
#include <utility>

#include "conformance/conformance_support.hpp"
#include "support/result_testing.hpp"

namespace reactor::conformance {
namespace {

constexpr const char* kMap = "r1:sum";

template <typename Factory>
class MapConformance : public BackendConformance<Factory> {
 protected:
  // Owner r1 (waiting) with map r1:sum of `total` elements, the first `batch` released:
  // element runs "r1:sum[i]" created pending, the released ones enqueued with their start jobs.
  void dispatch(std::uint32_t total, std::uint32_t batch, bool atomic = true) {
    CommitRequest c;
    c.headers.push_back(header("r1", RunStatus::kWaiting));
    for (std::uint32_t i = 0; i < total; ++i) {
      const std::string id = element_run_id(kMap, i);
      c.headers.push_back(
          header(id, i < batch ? RunStatus::kEnqueued : RunStatus::kPending, "r1", id));
      c.headers.back().reactor = "Element";
      if (i < batch) c.enqueue.push_back(element_job(i));
    }
    MapRow m = map_row(total, batch, atomic);
    m.released = std::min(total, batch);
    c.maps.push_back(m);
    this->commit_ok(c);
  }

  static MapRow map_row(std::uint32_t total, std::uint32_t batch, bool atomic) {
    return sum_map_row(total, batch, atomic);
  }

  static JobSpec element_job(std::uint32_t i) {
    JobSpec j = job("q", element_run_id(kMap, i), 0, JobKind::kStart);
    j.reactor = "Element";
    return j;
  }

  // An element run's last commit: its terminal header and its slot.
  static CommitRequest report(std::uint32_t i, SlotState state, std::string body = "1") {
    CommitRequest c;
    const std::string id = element_run_id(kMap, i);
    c.headers.push_back(header(
        id, state == SlotState::kFailed ? RunStatus::kFailed : RunStatus::kCompleted, "r1", id));
    c.headers.back().reactor = "Element";
    c.settle = MapSettle{MapSlotRow{kMap, i, state, std::move(body)}};
    return c;
  }
  void settle(std::uint32_t i, SlotState state, std::string body = "1") {
    this->commit_ok(report(i, state, std::move(body)));
  }

  // Another writer on this test's store, as another process opens it (the same file, the same
  // server); for memory: the same backend, since each open of memory: is a store of its own.
  Backend& other_writer() {
    if constexpr (std::is_same_v<Factory, MemoryBackendFactory>) {
      return this->db();
    } else {
      if (!other_) {
        Status s = this->factory_.open(other_);
        EXPECT_TRUE(s.ok()) << s.to_string();
      }
      return *other_;
    }
  }

  struct Waited {
    Status status;
    bool settled = false;
  };
  // wait_for_settle on kMap from a thread of its own: a caller blocked on the map.
  std::future<Waited> wait_for_settle(Duration max_wait) {
    return std::async(std::launch::async, [this, max_wait] {
      Waited w;
      w.status = assign_or_status(w.settled, this->db().wait_for_settle(kMap, max_wait));
      return w;
    });
  }

  MapRow map() {
    MapRow m;
    Status s = assign_or_status(m, this->db().load_map(kMap));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return m;
  }

  std::vector<MapSlotRow> slots(std::uint32_t first, std::uint32_t limit) {
    std::vector<MapSlotRow> out;
    Status s = assign_or_status(out, this->db().load_map_slots(kMap, first, limit));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return out;
  }

  RunStatus status_of(const std::string& id) {
    RunHeaderRow h;
    Status s = assign_or_status(h, this->db().load_header(id));
    EXPECT_TRUE(s.ok()) << s.to_string();
    return h.status;
  }

  // Every due job, fetched and acknowledged: (run id, kind) in fetch order.
  std::vector<std::pair<std::string, JobKind>> drain() {
    std::vector<std::pair<std::string, JobKind>> out;
    for (const JobSpec& j : this->drain_queue("q")) out.emplace_back(j.run_id, j.kind);
    return out;
  }

  // Elements released and not yet reported: what back-pressure bounds.
  std::uint32_t outstanding() {
    const MapRow m = map();
    return m.released - std::min(m.released, m.done);
  }

  std::unique_ptr<Backend> other_;  // other_writer()'s; goes before the factory's store
};
TYPED_TEST_SUITE(MapConformance, ConformanceBackends, BackendName);

using Jobs = std::vector<std::pair<std::string, JobKind>>;

TYPED_TEST(MapConformance, AMapRowReadsBackAsWritten) {
  MapRow m = this->map_row(7, 3, false);
  m.released = 3;
  m.state = MapState::kFailing;
  m.done = 2;
  m.failed = 1;
  m.undone = 1;
  CommitRequest c;
  c.maps.push_back(m);
  this->commit_ok(c);
  const MapRow back = this->map();
  EXPECT_EQ(back.owner_id, "r1");
  EXPECT_EQ(back.owner_reactor, "OrderSaga");
  EXPECT_EQ(back.queue, "q");
  EXPECT_EQ(back.element_reactor, "Element");
  EXPECT_EQ(back.total, 7u);
  EXPECT_EQ(back.batch_size, 3u);
  EXPECT_FALSE(back.atomic);
  EXPECT_EQ(back.state, MapState::kFailing);
  EXPECT_EQ(back.released, 3u);
  EXPECT_EQ(back.done, 2u);
  EXPECT_EQ(back.failed, 1u);
  EXPECT_EQ(back.undone, 1u);
  MapRow none;
  EXPECT_EQ(assign_or_status(none, this->db().load_map("r1:other")).code(), StatusCode::kNotFound);
}

// A sliding window: each report releases the next index, never more than batch_size out.
TYPED_TEST(MapConformance, EachReportReleasesTheNextElement) {
  this->dispatch(5, 2);
  EXPECT_EQ(this->drain(), (Jobs{{"r1:sum[0]", JobKind::kStart}, {"r1:sum[1]", JobKind::kStart}}));
  EXPECT_EQ(this->status_of("r1:sum[2]"), RunStatus::kPending);
  this->settle(1, SlotState::kCompleted, "11");
  EXPECT_EQ(this->status_of("r1:sum[2]"), RunStatus::kEnqueued);
  EXPECT_EQ(this->outstanding(), 2u);
  EXPECT_EQ(this->drain(), (Jobs{{"r1:sum[2]", JobKind::kStart}}));
  for (std::uint32_t i : {0u, 2u}) {
    this->settle(i, SlotState::kCompleted, std::to_string(10 + i));
    EXPECT_LE(this->outstanding(), 2u);
  }
  EXPECT_EQ(this->drain(), (Jobs{{"r1:sum[3]", JobKind::kStart}, {"r1:sum[4]", JobKind::kStart}}));
  const MapRow m = this->map();
  EXPECT_EQ(m.released, 5u);
  EXPECT_EQ(m.done, 3u);
  EXPECT_EQ(m.state, MapState::kRunning);
}

// M2/M3: the last report settles the map and resumes the owner once, and sets the owner's wake
// time so a lost resume is found by the sweeper; a report written again changes no count.
TYPED_TEST(MapConformance, TheLastReportSettlesTheMapAndResumesTheOwnerOnce) {
  this->dispatch(2, 2);
  this->drain();
  this->settle(0, SlotState::kCompleted, "10");
  this->settle(0, SlotState::kCompleted, "10-again");  // M3: an element executed twice
  EXPECT_EQ(this->map().done, 1u);
  EXPECT_EQ(this->drain(), Jobs{});
  // The settling commit's now: exact for a clock the test drives, between the two readings for
  // a store's own clock (Redis), which moves on meanwhile.
  const std::int64_t before = this->now_ms();
  this->settle(1, SlotState::kCompleted, "11");
  EXPECT_EQ(this->map().state, MapState::kSettled);
  RunHeaderRow owner;
  ASSERT_OK_AND_ASSIGN(owner, this->db().load_header("r1"));
  EXPECT_GE(owner.wake_at_ms, before);
  EXPECT_LE(owner.wake_at_ms, this->now_ms());
  EXPECT_EQ(this->drain(), (Jobs{{"r1", JobKind::kResume}}));
  this->settle(1, SlotState::kCompleted, "11-again");
  EXPECT_EQ(this->drain(), Jobs{});
  const std::vector<MapSlotRow> s = this->slots(0, 10);
  ASSERT_EQ(s.size(), 2u);
  EXPECT_EQ(s[0].body, "10-again");
  EXPECT_EQ(s[1].body, "11-again");
  EXPECT_EQ(this->map().done, 2u);
}

// The owner resumed by the settling commit is found again by the sweeper when its job is lost.
TYPED_TEST(MapConformance, AnOwnerWhoseResumeWasLostIsAnOrphan) {
  this->dispatch(1, 1);
  this->drain();
  this->settle(0, SlotState::kCompleted);
  this->drain();  // the resume job, lost with a worker that acknowledged it
  std::vector<RunHeaderRow> orphans;
  ASSERT_OK_AND_ASSIGN(orphans, this->db().find_orphans(10));
  EXPECT_EQ(this->ids(orphans), std::vector<std::string>{"r1"});
}

TYPED_TEST(MapConformance, AnAtomicFailureStopsReleasingAndSettlesWhenTheOthersReport) {
  this->dispatch(5, 2);
  this->drain();
  this->settle(0, SlotState::kFailed, R"({"message":"no"})");
  MapRow m = this->map();
  EXPECT_EQ(m.state, MapState::kFailing);
  EXPECT_EQ(m.released, 2u);
  EXPECT_EQ(m.failed, 1u);
  EXPECT_EQ(this->drain(), Jobs{});
  this->settle(1, SlotState::kCompleted);
  m = this->map();
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.released, 2u);
  EXPECT_EQ(this->status_of("r1:sum[2]"), RunStatus::kPending);  // never started
  EXPECT_EQ(this->drain(), (Jobs{{"r1", JobKind::kResume}}));
}

TYPED_TEST(MapConformance, ANonAtomicMapRunsEveryElementWhateverFails) {
  this->dispatch(3, 1, /*atomic=*/false);
  this->drain();
  this->settle(0, SlotState::kFailed);
  EXPECT_EQ(this->drain(), (Jobs{{"r1:sum[1]", JobKind::kStart}}));
  this->settle(1, SlotState::kFailed);
  this->settle(2, SlotState::kCompleted);
  const MapRow m = this->map();
  EXPECT_EQ(m.state, MapState::kSettled);
  EXPECT_EQ(m.failed, 2u);
  EXPECT_EQ(m.done, 3u);
}

TYPED_TEST(MapConformance, AnElementRolledBackIsCountedOnce) {
  this->dispatch(2, 2);
  this->settle(0, SlotState::kCompleted);
  this->settle(1, SlotState::kCompleted);
  this->settle(1, SlotState::kUndone, "1");
  this->settle(1, SlotState::kUndone, "1");
  const MapRow m = this->map();
  EXPECT_EQ(m.undone, 1u);
  EXPECT_EQ(m.done, 2u);
  EXPECT_EQ(this->slots(1, 1).at(0).state, SlotState::kUndone);
}

// A collector reads a large map page by page, in index order, whatever order elements reported.
TYPED_TEST(MapConformance, SlotsReadBackAPageAtATimeInIndexOrder) {
  this->dispatch(10, 10, /*atomic=*/false);
  for (std::uint32_t i : {7u, 2u, 9u, 0u, 4u, 3u, 8u, 1u, 6u, 5u}) {
    this->settle(i, SlotState::kCompleted, std::to_string(i));
  }
  std::vector<std::uint32_t> seen;
  for (const MapSlotRow& s : this->slots(3, 4)) {
    seen.push_back(s.index);
    EXPECT_EQ(s.body, std::to_string(s.index));
  }
  EXPECT_EQ(seen, (std::vector<std::uint32_t>{3, 4, 5, 6}));
  EXPECT_TRUE(this->slots(10, 5).empty());
}

// A settle under a stale fencing token writes nothing: no slot, no release.
TYPED_TEST(MapConformance, AFencedOutSettleWritesNothing) {
  this->dispatch(3, 1);
  Lease old = this->acquire(run_lease_key("r1:sum[0]"), "w1", true, this->kShortTtl);
  this->advance(this->kShortTtl + 1ms);
  this->acquire(run_lease_key("r1:sum[0]"), "w2", true);
  CommitRequest c;
  c.root_id = "r1:sum[0]";
  c.fencing_token = old.token;
  c.settle = MapSettle{MapSlotRow{kMap, 0, SlotState::kCompleted, "1"}};
  EXPECT_EQ(this->db().commit(c).code(), StatusCode::kLeaseLost);
  EXPECT_EQ(this->map().done, 0u);
  EXPECT_TRUE(this->slots(0, 10).empty());
  EXPECT_EQ(this->status_of("r1:sum[1]"), RunStatus::kPending);
}

// An element run is a run of its own: loaded by its id, recovered by the sweeper, listed only
// when asked, and purged with its owner.
TYPED_TEST(MapConformance, ElementRunsAreRunsOfTheirOwnThatLiveAsLongAsTheirOwner) {
  this->dispatch(2, 1);
  StoredRun element = this->load("r1:sum[0]");
  ASSERT_EQ(element.headers.size(), 1u);
  EXPECT_EQ(element.headers[0].parent_id, "r1");

  // Its job lost: the sweeper finds it, as it finds a root in that state.
  this->drain();
  std::vector<RunHeaderRow> orphans;
  ASSERT_OK_AND_ASSIGN(orphans, this->db().find_orphans(10));
  EXPECT_EQ(this->ids(orphans), std::vector<std::string>{"r1:sum[0]"});

  RunFilter roots;
  std::vector<RunHeaderRow> listed;
  ASSERT_OK_AND_ASSIGN(listed, this->db().list_runs(roots));
  EXPECT_EQ(this->ids(listed), std::vector<std::string>{"r1"});
  std::size_t count = 0;
  ASSERT_OK_AND_ASSIGN(count, this->db().count_runs(roots));
  EXPECT_EQ(count, 1u);
  RunFilter all;
  all.elements = true;
  ASSERT_OK_AND_ASSIGN(listed, this->db().list_runs(all));
  std::vector<std::string> ids = this->ids(listed);
  std::sort(ids.begin(), ids.end());
  EXPECT_EQ(ids, (std::vector<std::string>{"r1", "r1:sum[0]", "r1:sum[1]"}));

  // The owner ends, and its retention passes: it goes with its map and elements.
  this->settle(0, SlotState::kCompleted);
  RunHeaderRow done = header("r1", RunStatus::kCompleted, "", "", 2, this->now_ms() + 10);
  this->create({done});
  this->advance(1s);
  std::size_t purged = 0;
  ASSERT_OK_AND_ASSIGN(purged, this->db().purge_expired(10));
  EXPECT_EQ(purged, 1u);
  StoredRun gone;
  EXPECT_EQ(assign_or_status(gone, this->db().load_run("r1:sum[0]")).code(), StatusCode::kNotFound);
  EXPECT_EQ(assign_or_status(gone, this->db().load_run("r1:sum[1]")).code(), StatusCode::kNotFound);
  MapRow m;
  EXPECT_EQ(assign_or_status(m, this->db().load_map(kMap)).code(), StatusCode::kNotFound);
  EXPECT_TRUE(this->slots(0, 10).empty());
  EXPECT_FALSE(this->has_job("r1:sum[1]"));
}

// How long a waiter may take to see a settle: far more than a wake takes, far less than the
// waits below, which a missing wake would sit out.
constexpr auto kWoken = 20s;

// A caller blocked on an async unit (a map of one element run elsewhere) is woken by the commit
// of another writer that settles the map, not by its own deadline.
TYPED_TEST(MapConformance, WaitForSettleReturnsWhenAnotherWriterSettlesTheMap) {
  this->dispatch(1, 1);
  Backend& other = this->other_writer();
  auto waiter = this->wait_for_settle(60s);
  // Blocked, not returned: the map is not settled yet.
  EXPECT_EQ(waiter.wait_for(300ms), std::future_status::timeout);
  Status s = other.commit(this->report(0, SlotState::kCompleted));
  ASSERT_TRUE(s.ok()) << s.to_string();
  ASSERT_EQ(waiter.wait_for(kWoken), std::future_status::ready) << "no wake: the waiter sat out";
  const auto w = waiter.get();
  EXPECT_TRUE(w.status.ok()) << w.status.to_string();
  EXPECT_TRUE(w.settled);
}

// Every caller blocked on the map is woken, not only the first.
TYPED_TEST(MapConformance, WaitForSettleWakesEveryWaiter) {
  this->dispatch(1, 1);
  Backend& other = this->other_writer();
  auto first = this->wait_for_settle(60s);
  auto second = this->wait_for_settle(60s);
  EXPECT_EQ(first.wait_for(300ms), std::future_status::timeout);
  Status s = other.commit(this->report(0, SlotState::kFailed));
  ASSERT_TRUE(s.ok()) << s.to_string();
  for (auto* waiter : {&first, &second}) {
    ASSERT_EQ(waiter->wait_for(kWoken), std::future_status::ready);
    const auto w = waiter->get();
    EXPECT_TRUE(w.status.ok()) << w.status.to_string();
    EXPECT_TRUE(w.settled);
  }
}

TYPED_TEST(MapConformance, WaitForSettleOnASettledMapReturnsAtOnce) {
  this->dispatch(1, 1);
  this->settle(0, SlotState::kCompleted);
  auto waiter = this->wait_for_settle(60s);
  ASSERT_EQ(waiter.wait_for(kWoken), std::future_status::ready);
  const auto w = waiter.get();
  EXPECT_TRUE(w.status.ok()) << w.status.to_string();
  EXPECT_TRUE(w.settled);
}

TYPED_TEST(MapConformance, WaitForSettleTimesOut) {
  this->dispatch(2, 1);
  this->settle(0, SlotState::kCompleted);  // one of two: still running
  const auto started = std::chrono::steady_clock::now();
  bool settled = true;
  Status s = assign_or_status(settled, this->db().wait_for_settle(kMap, 50ms));
  EXPECT_TRUE(s.ok()) << s.to_string();
  EXPECT_FALSE(settled);
  EXPECT_GE(std::chrono::steady_clock::now() - started, 50ms);
}

TYPED_TEST(MapConformance, WaitForSettleOnAnUnknownMapIsNotFound) {
  Result<bool> settled = this->db().wait_for_settle("r1:none", 60s);
  EXPECT_EQ(settled.status().code(), StatusCode::kNotFound);
  EXPECT_FALSE(settled.value_or(false));
}

}  // namespace
}  // namespace reactor::conformance
