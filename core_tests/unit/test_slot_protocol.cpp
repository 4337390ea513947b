// The shared-memory generator's slot protocol (src/core/slot_protocol.h) with real threads:
// the lock-free issue, the locked step, reservations and set-ups racing on one slot, on
// std::atomic cells, under an injected clock. `make unit-tsan` runs these tests under
// ThreadSanitizer, which checks the harness's own shared data and that the cells the mutex's
// holder writes are written by no one else (ShadowedAtomics below); the assertions check the
// protocol. `make unit` and `make unit-san` run them too.
//
// Mutations of the protocol these tests catch: the header applies one when built with
// -DIDSEQ_SLOT_MUTATION_n, and `make mutation` (a part of `make test`) builds these tests once
// per mutation the header tests for and fails unless each build fails a test (one line per
// mutation, naming the tests that failed). A new mutation goes into the header and this list:
//  1. try_lock_free writes the word with a plain store instead of a compare-and-swap: two
//     issuers step from one word and issue one id twice.
//     -> all three (ids not distinct, or a thread's ids not increasing).
//  2. try_lock_free does not read setup again after its compare-and-swap: an issuer of a set-up
//     that was replaced meanwhile keeps an id it stepped from the new set-up's word.
//     -> SlotProtocol.SetUpsDropTheIdsTheyCannotOrder (an id accepted under a generation lies
//        beyond the word the next set-up found).
//  3. raise_last_now stores the reading without comparing (it may lower last_now).
//     -> SlotProtocol.ClockReadingsOnlyRise (last_now seen to go down while the clock only
//        advances).
//  4. try_lock_free issues without reading the reservation.
//     -> SlotProtocol.ThreadsIssueDistinctIncreasingCoveredIds and
//        SlotProtocol.SetUpsDropTheIdsTheyCannotOrder (an id above the durable mark).
//  5. locked_step reads the clock before last_now and the word: a lock-free issuer's later
//     reading, raised into last_now in between, looks like a step back of the clock.
//     -> SlotProtocol.ClockReadingsOnlyRise (a step back reported while the clock only advances).
//  6. try_lock_free writes anchor_unit (a cell the mutex's holder writes) after its id.
//     -> ThreadSanitizer only (a data race on the cell's shadow, see ShadowedAtomics): the
//        assertions do not see it.
#include "slot_protocol.h"
#include "std_atomics.h"
#include "snowflake.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdint>
#include <mutex>
#include <random>
#include <thread>
#include <vector>

namespace {

using namespace idseq;

// The atomics policy of these tests: StdAtomics' cells and orders, and beside each cell that
// the protocol writes only under the slot's mutex (setup, reserved, sync_reserved,
// anchor_unit, anchor_mono) a plain, non-atomic shadow written with it. On the std::atomic
// cells themselves ThreadSanitizer can report nothing: every access is atomic, so none is a
// data race, and its runtime does not model the fences (atomic_thread_fence, as
// pg_read_barrier and pg_write_barrier) that order the steps' relaxed reads and writes, so a
// missing or misplaced barrier goes unseen (on x86, which reorders little, the assertions
// rarely see one either). Two writes of a shadow race unless the mutex orders them: a step that
// writes one of those cells without the mutex (mutation 6) is reported, and fails the run.
struct ShadowedAtomics {
    template <class T>
    struct Cell {
        std::atomic<T> value{0};
        T shadow = 0; // written with value when under_mutex: ThreadSanitizer checks its order
        bool under_mutex = false; // set before the threads start
    };
    using U64 = Cell<uint64_t>;
    using U32 = Cell<uint32_t>;
    template <class T>
    static void put(Cell<T>& a, T v)
    {
        a.value.store(v, std::memory_order_relaxed);
        if (a.under_mutex)
            a.shadow = v;
    }
    static uint64_t read(U64& a) { return a.value.load(std::memory_order_relaxed); }
    static uint32_t read(U32& a) { return a.value.load(std::memory_order_relaxed); }
    static void write(U64& a, uint64_t v) { put(a, v); }
    static void write(U32& a, uint32_t v) { put(a, v); }
    static bool cas(U64& a, uint64_t& expected, uint64_t desired)
    {
        return a.value.compare_exchange_strong(expected, desired, std::memory_order_seq_cst);
    }
    static void read_barrier() { idseq::test::StdAtomics::read_barrier(); }
    static void write_barrier() { idseq::test::StdAtomics::write_barrier(); }
    static void full_barrier() { idseq::test::StdAtomics::full_barrier(); }
};

using Atomics = ShadowedAtomics;
using Cells = slot::SlotCells<Atomics>;

constexpr int64_t kUnitUs = 1000;
constexpr int64_t kNode = 3;

// One slot and what the server keeps beside it: the durable mark H (raised under the layout's
// lock, before the slot's reservation), the slot's mutex, the clock.
struct Server {
    // 64 ids a unit, so that units are spent and new ones reserved often
    Layout layout = parse_layout("slot_test", 0, "time:40,node:4,seq:6", kUnitUs);
    WordStep ws = word_step(layout);
    int64_t ahead = 2; // units the ids may run ahead of the clock
    int64_t lease = 1; // units a reservation covers beyond the step's
    Cells c;
    std::mutex mutex; // the slot's spinlock
    std::mutex layout_lock; // the layout's heavyweight lock
    std::atomic<int64_t> durable{-1}; // H, encoded
    std::atomic<int64_t> clock_us{0};
    std::atomic<int64_t> mono_us{0};
    std::atomic<bool> stop{false};
    std::atomic<int64_t> lowered{0}; // the issuers' Probe::lowered, added up
    uint32_t generation = 1; // under mutex

    explicit Server(int64_t start_unit)
    {
        clock_us = unit_start_us(layout, start_unit);
        mono_us = 1000000;
        const Mark h{start_unit};
        durable = encode_mark(layout, h);
        GenState st;
        restart_from_mark(layout, st, h, kNode);
        c.setup.under_mutex = c.reserved.under_mutex = c.sync_reserved.under_mutex = true;
        c.anchor_unit.under_mutex = c.anchor_mono.under_mutex = true;
        Atomics::write(c.word, position_of(layout, st, kNode));
        Atomics::write(c.reserved, static_cast<uint64_t>(encode_mark(layout, h)));
        Atomics::write(c.sync_reserved, static_cast<uint64_t>(-1));
        Atomics::write(c.last_now, slot::now_word(INT64_MIN));
        Atomics::write(c.anchor_unit, static_cast<uint64_t>(-1));
        Atomics::write(c.anchor_mono, uint64_t{0});
        Atomics::write(c.setup, generation);
    }

    int64_t now_unit() const { return unit_of(layout, clock_us.load(std::memory_order_relaxed)); }

    void reserved_view(int64_t& unit, int64_t& counter)
    {
        GenState st;
        apply_mark(layout, st, decode_mark(layout, static_cast<int64_t>(Atomics::read(c.reserved))), kNode);
        unit = st.reserved_unit;
        counter = st.reserved_counter;
    }

    // A reservation up to unit (+ the lease): H first, then the slot's view of it.
    void reserve(int64_t unit)
    {
        Mark m;
        int64_t encoded;
        {
            std::lock_guard<std::mutex> g(layout_lock);
            m = mark_max(decode_mark(layout, durable.load()), Mark{unit + lease});
            encoded = encode_mark(layout, m);
            durable.store(encoded);
        }
        std::lock_guard<std::mutex> g(mutex);
        slot::raise_mark<Atomics>(layout, c.reserved, m, encoded);
    }

    bool covered(uint64_t word)
    {
        const Position p = unpack_position(layout, word);
        return mark_covers_id(layout, decode_mark(layout, durable.load()), p.last_unit, p.node, p.counter);
    }
};

// An id as the tests see it: its word, the set-up generation it was accepted under, whether the
// durable mark covered it, and the step back of the clock it reported.
struct Issued {
    uint64_t word;
    uint32_t generation;
    bool covered;
    int64_t clock_back;
};

// What one issuer thread sees of the slot, and the pauses it takes inside the steps: a reading
// of the clock or of the reservation is now and then followed by a yield or a short sleep, as
// a process preempted there would be, so that the other threads' steps land in the windows
// between a step's reads and its compare-and-swap (where the protocol must hold, and where
// the mutations break it). Seeded per thread.
struct Probe {
    std::mt19937_64 rng;
    uint64_t last_now = 0; // the greatest last_now this thread read (reads of one atomic cell
                           // follow its order of modification, so they never see it go down
                           // unless it was lowered)
    int64_t lowered = 0;
    explicit Probe(uint64_t seed) : rng(seed) {}
    uint64_t observe(Cells& c)
    {
        const uint64_t v = Atomics::read(c.last_now);
        if (v < last_now)
            ++lowered;
        last_now = v;
        return v;
    }
    void pause()
    {
        const uint64_t r = rng() % 64;
        if (r < 4)
            std::this_thread::yield();
        else if (r < 7)
            std::this_thread::sleep_for(std::chrono::microseconds(100)); // the clock moves meanwhile
    }
};

// One id by either step, as nextval_fast takes them (the waits yield to the clock thread), under
// the reservation view view(unit, counter); reserve(unit) reserves up to unit; covered(word)
// tells whether the durable mark the view stands for covers an id.
template <class View, class Reserve, class Covered>
bool issue_with(Server& sv, slot::Issuer& me, Probe& p, Issued& out, View&& view, Reserve&& reserve, Covered&& covered)
{
    while (!sv.stop.load(std::memory_order_relaxed)) {
        FastIssue fi;
        if (slot::try_lock_free<Atomics>(
                sv.c, me, sv.layout, sv.ws, kNode, sv.ahead, 0,
                [&] {
                    const uint64_t seen = p.observe(sv.c);
                    const int64_t unit = sv.now_unit();
                    // a reading past last_now (this issuer will raise it): often a long pause,
                    // the clock and the others' readings moving on meanwhile
                    if (slot::now_word(unit) > seen && p.rng() % 4 == 0)
                        std::this_thread::sleep_for(std::chrono::microseconds(300));
                    else
                        p.pause();
                    return unit;
                },
                [&](int64_t& u, int64_t& k) {
                    view(u, k);
                    p.pause();
                },
                fi)) {
            p.observe(sv.c);
            out = Issued{fi.word, me.setup, covered(fi.word), 0};
            return true;
        }
        Step step;
        int64_t now_us = 0;
        {
            std::lock_guard<std::mutex> g(sv.mutex);
            step = slot::locked_step<Atomics>(
                sv.c, me, sv.layout, kNode, sv.ahead, 0,
                [&](int64_t& us, int64_t& mono) {
                    p.observe(sv.c);
                    us = sv.clock_us.load(std::memory_order_relaxed);
                    mono = sv.mono_us.load(std::memory_order_relaxed);
                    p.pause(); // the slot's mutex held: a preempted holder of the spinlock
                },
                [&](int64_t& u, int64_t& k) { view(u, k); }, now_us);
            if (step.kind == Step::Issue) {
                out = Issued{me.word, me.setup, covered(me.word), step.clock_back};
                return true;
            }
        }
        if (step.kind == Step::NeedReservation)
            reserve(step.unit);
        else
            std::this_thread::yield(); // WaitForClock: the clock thread moves the clock
    }
    return false;
}

// One id under the slot's own reservation (a slot of one database).
bool issue(Server& sv, slot::Issuer& me, Probe& p, Issued& out)
{
    return issue_with(
        sv, me, p, out, [&](int64_t& u, int64_t& k) { sv.reserved_view(u, k); }, [&](int64_t unit) { sv.reserve(unit); },
        [&](uint64_t word) { return sv.covered(word); });
}

// The clock: a tick of a quarter unit every few microseconds of real time; with step_back, now
// and then three units back, or a stall; the monotonic clock never steps back.
void run_clock(Server& sv, bool step_back, uint64_t seed)
{
    std::mt19937_64 rng(seed);
    while (!sv.stop.load()) {
        std::this_thread::sleep_for(std::chrono::microseconds(20));
        const uint64_t r = rng() % 64;
        if (step_back && r == 0)
            sv.clock_us.fetch_sub(3 * kUnitUs);
        else if (step_back && r == 1)
            std::this_thread::sleep_for(std::chrono::microseconds(500)); // a stall
        else
            sv.clock_us.fetch_add(kUnitUs / 4);
        sv.mono_us.fetch_add(kUnitUs / 4);
    }
}

constexpr int kIssuers = 6;
constexpr int kIdsPerIssuer = 8000;
constexpr auto kMaxRun = std::chrono::seconds(4);

// Issuer threads, each issuing up to kIdsPerIssuer ids (or until kMaxRun), with the helpers.
std::vector<std::vector<Issued>> run_issuers(Server& sv, int issuers, std::vector<std::thread> helpers)
{
    std::vector<std::vector<Issued>> ids(issuers);
    std::vector<std::thread> threads;
    std::atomic<int> done{0};
    for (int t = 0; t < issuers; ++t)
        threads.emplace_back([&, t] {
            slot::Issuer me;
            Probe p(1000 + t);
            Issued one;
            ids[t].reserve(kIdsPerIssuer);
            while (static_cast<int>(ids[t].size()) < kIdsPerIssuer && issue(sv, me, p, one))
                ids[t].push_back(one);
            sv.lowered.fetch_add(p.lowered);
            done.fetch_add(1);
        });
    const auto deadline = std::chrono::steady_clock::now() + kMaxRun;
    while (done.load() < issuers && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    sv.stop = true;
    for (auto& t : threads)
        t.join();
    for (auto& t : helpers)
        t.join();
    return ids;
}

// Every id distinct, and each thread's ids increasing (one node).
void expect_distinct_and_increasing(const std::vector<std::vector<Issued>>& ids)
{
    std::vector<uint64_t> all;
    for (size_t t = 0; t < ids.size(); ++t) {
        for (size_t i = 0; i < ids[t].size(); ++i) {
            all.push_back(ids[t][i].word);
            if (i > 0) {
                ASSERT_GT(ids[t][i].word, ids[t][i - 1].word) << "thread " << t << " id " << i;
            }
        }
    }
    std::sort(all.begin(), all.end());
    const auto dup = std::adjacent_find(all.begin(), all.end());
    EXPECT_TRUE(dup == all.end()) << "an id issued twice: word " << (dup == all.end() ? 0 : *dup);
    EXPECT_GT(all.size(), 1000u) << "too few ids to say anything";
}

TEST(SlotProtocol, ThreadsIssueDistinctIncreasingCoveredIds)
{
    Server sv(1000);
    std::vector<std::thread> helpers;
    helpers.emplace_back(run_clock, std::ref(sv), true, 7);
    // another backend's reservations, raised at the clock's unit now and then
    helpers.emplace_back([&sv] {
        while (!sv.stop.load()) {
            std::this_thread::sleep_for(std::chrono::microseconds(300));
            sv.reserve(sv.now_unit());
        }
    });
    const auto ids = run_issuers(sv, kIssuers, std::move(helpers));
    expect_distinct_and_increasing(ids);
    for (size_t t = 0; t < ids.size(); ++t)
        for (size_t i = 0; i < ids[t].size(); ++i)
            ASSERT_TRUE(ids[t][i].covered) << "an id above the durable mark: thread " << t << " id " << i;
}

// Set-ups (as init_slot's: most resume right after the word they find, as after a clean
// shutdown; every 16th restarts above the durable mark, as after a crash) over and over while
// ids are issued: the ids accepted under generation g all lie after the word g started from
// and at or before the word the next set-up found.
TEST(SlotProtocol, SetUpsDropTheIdsTheyCannotOrder)
{
    Server sv(1000);
    struct SetUp {
        uint64_t found; // the word the set-up found ...
        uint64_t started; // ... and the word it left
    };
    std::vector<SetUp> setups(1); // by generation; generation 1 is the server's start
    setups.push_back(SetUp{0, Atomics::read(sv.c.word)});
    std::vector<std::thread> helpers;
    helpers.emplace_back(run_clock, std::ref(sv), false, 11);
    helpers.emplace_back([&sv, &setups] {
        while (!sv.stop.load()) {
            std::this_thread::yield();
            std::lock_guard<std::mutex> l(sv.layout_lock);
            std::lock_guard<std::mutex> g(sv.mutex);
            slot::begin_setup<Atomics>(sv.c);
            SetUp s{};
            const int64_t h = sv.durable.load();
            const bool restart = setups.size() % 16 == 0;
            slot::exchange_word<Atomics>(sv.c, [&](uint64_t old) {
                s.found = s.started = old;
                if (restart) {
                    GenState st;
                    restart_from_mark(sv.layout, st, decode_mark(sv.layout, h), kNode);
                    s.started = position_of(sv.layout, st, kNode);
                }
                return s.started;
            });
            slot::reset_cells<Atomics>(sv.c, h, -1);
            sv.generation = slot::next_generation(sv.generation);
            setups.push_back(s);
            slot::publish_setup<Atomics>(sv.c, sv.generation);
        }
    });
    const auto ids = run_issuers(sv, kIssuers - 1, std::move(helpers));
    ASSERT_GT(setups.size(), 100u) << "too few set-ups to say anything";
    expect_distinct_and_increasing(ids);
    for (size_t t = 0; t < ids.size(); ++t)
        for (size_t i = 0; i < ids[t].size(); ++i) {
            const Issued& id = ids[t][i];
            ASSERT_LT(id.generation, setups.size());
            ASSERT_GT(id.word, setups[id.generation].started) << "thread " << t << " id " << i;
            if (id.generation + 1 < setups.size()) {
                ASSERT_LE(id.word, setups[id.generation + 1].found)
                    << "an id of a replaced set-up accepted: generation " << id.generation << ", thread " << t
                    << " id " << i;
            }
            ASSERT_TRUE(id.covered) << "thread " << t << " id " << i;
        }
}

// With a clock that only advances, last_now only rises and no step reports a step back.
TEST(SlotProtocol, ClockReadingsOnlyRise)
{
    Server sv(1000);
    sv.ahead = 1; // lock-free ids a unit ahead of a reading, and spent units waiting for the clock
    std::vector<std::thread> helpers;
    helpers.emplace_back(run_clock, std::ref(sv), false, 13);
    const auto ids = run_issuers(sv, kIssuers, std::move(helpers));
    expect_distinct_and_increasing(ids);
    EXPECT_EQ(sv.lowered.load(), 0) << "last_now went down";
    for (size_t t = 0; t < ids.size(); ++t)
        for (size_t i = 0; i < ids[t].size(); ++i)
            ASSERT_EQ(ids[t][i].clock_back, 0) << "a step back reported: thread " << t << " id " << i;
}

// A stream shared by the databases of a server (src/pg/sf_generator.cpp, "Databases
// sharing a stream"): issuers of two databases on one slot, each under its own database's
// durable mark as it last confirmed it (a view of its own, not the slot's reserved cell), each
// reservation raising its database's mark and the server's fence. The second database joins
// while the first issues, its mark above the stream and the fence (a database restored from
// elsewhere, whose rows carry ids up to it): the join raises the word above its mark, as a
// set-up; a join whose mark the fence covers leaves the word alone. Every id is distinct, each
// issuer's ids increase, every id lies under its own database's durable mark and under the
// fence, and the second database's ids lie above its mark as it joined.
TEST(SlotProtocol, DatabasesShareOneStreamUnderTheirOwnMarks)
{
    Server sv(1000);
    constexpr int kDatabases = 2;
    std::atomic<int64_t> durable[kDatabases];
    std::mutex db_lock[kDatabases]; // each database's layout lock
    std::mutex fence_lock;
    Mark fence{1000}; // the server's fence: covers every mark a reservation made (a join raises it to the joiner's)
    durable[0] = encode_mark(sv.layout, Mark{1000});
    durable[1] = encode_mark(sv.layout, Mark{1040}); // ahead of the stream: restored rows up to unit 1040
    std::mutex join_lock; // the server-wide lock of the slot's set-ups
    std::vector<std::vector<Issued>> ids(kIssuers);
    std::vector<int> db_of(kIssuers);
    std::vector<uint64_t> joined_above(kIssuers, 0);
    std::vector<std::thread> threads;
    std::atomic<int> done{0};
    std::thread clock(run_clock, std::ref(sv), true, 17);
    for (int t = 0; t < kIssuers; ++t) {
        const int db = t % kDatabases;
        db_of[t] = db;
        threads.emplace_back([&, t, db] {
            if (db == 1) // joins a little later, while the first database issues
                std::this_thread::sleep_for(std::chrono::milliseconds(2 + t));
            slot::Issuer me;
            Probe p(2000 + t);
            int64_t view = -1; // this issuer's view of its database's mark
            {
                // the join: the mark read (confirmed), the word raised above it when below
                std::lock_guard<std::mutex> j(join_lock);
                std::lock_guard<std::mutex> l(db_lock[db]);
                view = durable[db].load();
                const Mark h = decode_mark(sv.layout, view);
                GenState st;
                restart_from_mark(sv.layout, st, h, kNode);
                const uint64_t restart = position_of(sv.layout, st, kNode);
                bool foreign;
                {
                    std::lock_guard<std::mutex> fl(fence_lock);
                    foreign = !mark_covers(fence, h); // not made by a reservation of this server
                    fence = mark_max(fence, h);
                }
                if (foreign)
                    joined_above[t] = restart;
                std::lock_guard<std::mutex> g(sv.mutex);
                if (foreign && restart > Atomics::read(sv.c.word)) {
                    slot::begin_setup<Atomics>(sv.c);
                    slot::exchange_word<Atomics>(sv.c, [&](uint64_t old) { return std::max(old, restart); });
                    sv.generation = slot::next_generation(sv.generation);
                    slot::publish_setup<Atomics>(sv.c, sv.generation);
                }
            }
            Issued one;
            ids[t].reserve(kIdsPerIssuer);
            while (static_cast<int>(ids[t].size()) < kIdsPerIssuer &&
                   issue_with(
                       sv, me, p, one,
                       [&](int64_t& u, int64_t& k) {
                           GenState st;
                           apply_mark(sv.layout, st, decode_mark(sv.layout, view), kNode);
                           u = st.reserved_unit;
                           k = st.reserved_counter;
                       },
                       [&](int64_t unit) {
                           std::lock_guard<std::mutex> l(db_lock[db]);
                           const Mark m = mark_max(decode_mark(sv.layout, durable[db].load()), Mark{unit + sv.lease});
                           const int64_t encoded = encode_mark(sv.layout, m);
                           durable[db].store(encoded);
                           {
                               std::lock_guard<std::mutex> fl(fence_lock);
                               fence = mark_max(fence, m);
                           }
                           view = encoded; // confirmed: this database's mark as now durable
                       },
                       [&](uint64_t word) {
                           const Position pos = unpack_position(sv.layout, word);
                           Mark f;
                           {
                               std::lock_guard<std::mutex> fl(fence_lock);
                               f = fence;
                           }
                           return mark_covers_id(sv.layout, decode_mark(sv.layout, durable[db].load()), pos.last_unit,
                                                 pos.node, pos.counter) &&
                               mark_covers_id(sv.layout, f, pos.last_unit, pos.node, pos.counter);
                       }))
                ids[t].push_back(one);
            done.fetch_add(1);
        });
    }
    const auto deadline = std::chrono::steady_clock::now() + kMaxRun;
    while (done.load() < kIssuers && std::chrono::steady_clock::now() < deadline)
        std::this_thread::sleep_for(std::chrono::milliseconds(2));
    sv.stop = true;
    for (auto& t : threads)
        t.join();
    clock.join();
    expect_distinct_and_increasing(ids);
    for (int t = 0; t < kIssuers; ++t) {
        EXPECT_GT(ids[t].size(), 100u) << "thread " << t << " of database " << db_of[t] << " issued too few ids";
        for (size_t i = 0; i < ids[t].size(); ++i) {
            ASSERT_TRUE(ids[t][i].covered) << "an id above its database's mark or the fence: thread " << t << " id " << i;
            ASSERT_GT(ids[t][i].word, joined_above[t]) << "an id at or below its database's mark as it joined: thread "
                                                          << t << " id " << i;
        }
    }
}

} // namespace
