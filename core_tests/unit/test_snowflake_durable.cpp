// Unit tests of the snowflake core: durable marks, restarts, crashes, the two-path model and synchronous standbys.
#include "snowflake_fixtures.h"

#include <unordered_set>

using namespace idseq;
using namespace idseq::sf_test;

// ---- Durable state helpers ------------------------------------------------------------------

TEST(SnowflakeDurable, LeaseAndReservationTarget)
{
    const Layout& s = builtin("snowflake");
    const Layout& sony = builtin("sonyflake");
    EXPECT_EQ(lease_units(s, 1000000), 1000);
    EXPECT_EQ(lease_units(sony, 1000000), 100);
    EXPECT_EQ(lease_units(sony, 10001), 2);
    EXPECT_EQ(lease_units(sony, 1), 1);
    EXPECT_EQ(lease_units(s, 0), 0);
    EXPECT_EQ(lease_units(s, -5), 0);
    EXPECT_EQ(lease_units(s, std::numeric_limits<int64_t>::max()), std::numeric_limits<int64_t>::max() / 1000 + 1);

    EXPECT_EQ(reservation_target(s, 100, 100, 1000), 1100);
    EXPECT_EQ(reservation_target(s, 100, 50, 1000), 1050); // clock behind: the lease counts from the clock
    EXPECT_EQ(reservation_target(s, 5000, 100, 1000), 5000); // ahead by more than the lease: this unit only
    EXPECT_EQ(reservation_target(s, 100, 500, 1000), 1500); // unit behind the clock: ahead of the clock
    EXPECT_EQ(reservation_target(s, 100, 100, 0), 100);
    const int64_t top = s.max_value(Field::Time);
    EXPECT_EQ(reservation_target(s, top - 5, top - 5, 1000), top);
    EXPECT_EQ(reservation_target(s, top, std::numeric_limits<int64_t>::max(), std::numeric_limits<int64_t>::max()), top);
    Layout t63 = parse_layout("t63", 0, "time:63", 1);
    EXPECT_EQ(reservation_target(t63, 5, std::numeric_limits<int64_t>::max(), 10), std::numeric_limits<int64_t>::max());
}

TEST(SnowflakeDurable, ResumeFromLastId)
{
    const Layout& s = builtin("snowflake");
    int64_t id = compose(s, 777, 5, 42, 0);
    GenState st = resume_from_last_id(s, id, 800, 5);
    EXPECT_EQ(st.last_unit, 777);
    EXPECT_EQ(st.counter, 42);
    EXPECT_EQ(st.reserved_unit, 800);
    EXPECT_EQ(st.last_now, std::numeric_limits<int64_t>::min());
    Step n = next(s, st, 777, 0);
    EXPECT_EQ(n.kind, Step::Issue);
    EXPECT_EQ(n.counter, 43);
    EXPECT_EQ(n.clock_back, 0);
    EXPECT_GT(compose(s, n.unit, 5, n.counter, 0), id);

    // Another node id: the unit is finished, so the next id is greater even for a smaller node,
    // and it goes into the next unit at once, one unit ahead of the clock, instead of waiting
    // for the clock to reach that unit (up to a whole unit; an hour on an hourly layout).
    GenState other = resume_from_last_id(s, id, 800, 4);
    EXPECT_EQ(other.counter, kCounterSpent);
    EXPECT_TRUE(other.node_changed);
    GenState at_once = other;
    Step first = next(s, at_once, 777, 0, 0, 777 * s.unit_us);
    EXPECT_EQ(first.kind, Step::Issue);
    EXPECT_EQ(first.unit, 778);
    EXPECT_FALSE(at_once.node_changed);
    EXPECT_EQ(at_once.anchor_unit, 778); // an event: anchored one unit past the last id
    // the new node's next ids stay in that unit, and the one after waits for the pace
    Step second = next(s, at_once, 777, 0, 0, 777 * s.unit_us + 10);
    EXPECT_EQ(second.kind, Step::Issue);
    EXPECT_EQ(second.unit, 778);
    at_once.counter = kCounterSpent;
    EXPECT_EQ(next(s, at_once, 777, 0, 0, 777 * s.unit_us + 20).kind, Step::WaitForClock);
    Step m = next(s, other, 700, 0);
    EXPECT_EQ(m.unit, 778);
    EXPECT_GT(compose(s, m.unit, 4, m.counter, 0), id);

    // A spent unit, a rand counter, a layout with neither.
    GenState spent = resume_from_last_id(s, compose(s, 9, 5, 4095, 0), 9, 5);
    Step need = next(s, spent, 3, 0);
    EXPECT_EQ(need.kind, Step::NeedReservation);
    EXPECT_EQ(need.unit, 10);
    const Layout& ns = builtin("nonsequential");
    GenState r = resume_from_last_id(ns, compose(ns, 50, 1, 1234, 0), 60, 1);
    EXPECT_EQ(r.counter, 1234);
    EXPECT_EQ(next(ns, r, 50, 0).counter, 1235);
    EXPECT_EQ(counter_of(builtin("display60"), compose(builtin("display60"), 3, 0, 17, ~uint64_t{0})), 17);
    EXPECT_EQ(node_of(builtin("sonyflake"), compose(builtin("sonyflake"), 3, 65535, 17, 0)), 65535);
    Layout per_unit = parse_layout("per_unit", 0, "time:50,node:5", kMs);
    GenState p = resume_from_last_id(per_unit, compose(per_unit, 20, 3, 0, 0), 30, 3);
    EXPECT_EQ(next(per_unit, p, 20, 0).kind, Step::WaitForClock);
    EXPECT_EQ(next(per_unit, p, 21, 0).unit, 21);

    expect_error(ErrorKind::OutOfRange, [&] { resume_from_last_id(s, -1, 0, 0); });
    expect_error(ErrorKind::OutOfRange, [&] { resume_from_last_id(builtin("display60"), int64_t{1} << 60, 0, 0); });
}



// The adapter's two paths (snowflake_fixtures.h: Server) through crashes, clean restarts
// that switch paths, clock steps both ways, lease and max_ahead changes and node changes:
// every id above the one before. Mutations of the model this test catches: a fast-path
// set-up that leaves P known (the slow path resumes below the fast path's ids), and a slow
// path that drops the anchor shared beside P. Not caught, because they change pacing or
// warnings and not which ids are issued: issuing lock-free while the clock is behind the
// last reading, and dropping the fast path's anchor.
TEST(SnowflakeDurable, BothPathsCrashesRestartsAndNodeChangesNeverRepeat)
{
    std::vector<Layout> layouts;
    for (const char* name : {"snowflake", "sonyflake", "display60", "nonsequential"})
        layouts.push_back(builtin(name));
    for (const Layout& l : long_unit_layouts())
        layouts.push_back(l);
    for (const Layout& l : layouts) {
        SCOPED_TRACE(l.name);
        Server srv(l);
        std::mt19937_64 rng(10);
        int64_t now = 10 * kHourUs / l.unit_us;
        int64_t prev = -1;
        int64_t node = l.has(Field::Node) ? 7 : 0;
        int issued = 0;
        for (int i = 0; i < 200000; ++i) {
            uint64_t r = rng() % 10000;
            if (r < 8000)
                now += static_cast<int64_t>(rng() % 2);
            else if (r < 9890)
                ;
            else if (r < 9900)
                now += static_cast<int64_t>(rng() % 50000); // the clock catches up, or jumps ahead
            else if (r < 9930)
                now -= static_cast<int64_t>(rng() % 5000); // clock steps back
            else if (r < 9940) {
                srv.crash();
                now -= static_cast<int64_t>(rng() % 5000);
            } else if (r < 9960)
                srv.clean_restart(rng() % 2 == 0); // with or without preload
            else if (l.has(Field::Node))
                node = node == 7 ? 3 : 7; // a reload changes idseq.node_id
            // leases of 0 to 50 units, and below one unit; max_ahead of 0 to 3 units
            srv.lease_us = rng() % 2 == 0 ? static_cast<int64_t>(rng() % 50) * l.unit_us
                                          : static_cast<int64_t>(rng() % static_cast<uint64_t>(l.unit_us));
            if (rng() % 1000 == 0)
                srv.ahead = static_cast<int64_t>(rng() % 4);
            int64_t id = srv.nextval(now, node, static_cast<int>(rng() % 2));
            ASSERT_NE(id, -2);
            if (id < 0) {
                ++now;
                continue;
            }
            ASSERT_GT(id, prev) << "step " << i;
            prev = id;
            ++issued;
        }
        EXPECT_GT(issued, 150000);
        // every mechanism of the model ran (leases below a unit make most fast-path ids take
        // the locked step, which reserves)
        EXPECT_GT(srv.lock_free_ids, 5000);
        EXPECT_GT(srv.locked_ids, 5000);
        EXPECT_GT(srv.resumed_from_P, 0);
        EXPECT_GT(srv.slow_anchored, 0);
    }
}


// Two databases of one server issuing one layout's ids with one node id, as the adapter
// runs them (src/pg/sf_generator.cpp, "Databases sharing a stream";
// sf_claims.cpp): with preload, backends of both databases issue from one shared slot,
// each under its own database's H as it last confirmed it, each reservation raising its H and
// the server's fence; a stream's first join after a start sets it up from the word saved at
// a clean shutdown, above the fence, or -- when the pair was never issued on the server --
// above the joiner's H; a later join raises the word above the joiner's H. Without preload
// one database at a time holds the claim and issues on the path without shared memory; a
// take-over restarts above the fence. Through crashes and promotions (the claims' record
// lost), clean restarts that switch paths, clock steps and a database's mark set ahead (a
// restore): no id issued twice across the databases, and every id under its database's H.
// Mutations of the model this test catches: a stream set up after a crash from the joiner's
// H without the fence, a reservation on the shared stream that does not raise the fence, and a
// join that leaves the word below a mark the fence does not cover (each applied and seen to
// fail: an id issued twice).
struct SharedStreamServer {
    const Layout& layout;
    int64_t node;
    Mark H[2];
    int64_t fence_us = 0;
    int64_t P[2] = {-1, -1};
    bool issued_ever = false; // the claims' record: false once it may have lost a claim
    bool record_lost = false;
    bool fast = true, ready = false, saved = false;
    uint64_t saved_word = 0;
    slot::SlotCells<test::StdAtomics> cells;
    uint32_t generation = 0;
    int holder = -1; // the claim file: -1 none, 0/1 a database's claim without preload, 10 + db a
                     // stream only that database joined, -2 a stream several databases joined
    int64_t lease_us = 0, now_us = 0, mono_us = 0;
    int shared_ids[2] = {0, 0}, slow_ids = 0, takeovers = 0, raised_by_join = 0;
    struct Backend {
        bool joined = false, started = false;
        Mark view, base, mark;
        slot::Issuer issuer;
    } backends[4]; // backend i belongs to database i % 2
    std::mt19937_64 rng{21};

    SharedStreamServer(const Layout& l, int64_t n) : layout(l), node(n) { fresh(); }
    void fresh()
    {
        cells.setup = 0;
        cells.word = 0;
        cells.anchor_unit = static_cast<uint64_t>(-1);
        cells.anchor_mono = 0;
        cells.last_now = slot::now_word(std::numeric_limits<int64_t>::min());
        ready = false;
        for (Backend& b : backends)
            b = Backend{};
    }
    void raise_fence(const Mark& m) { fence_us = std::max(fence_us, fence_of_mark(layout, m)); }
    Mark above_fence(int db)
    {
        H[db] = mark_max(H[db], fence_mark(layout, fence_us, node));
        return H[db];
    }
    Mark reserve(int db, int64_t unit, int64_t counter)
    {
        H[db] = mark_for_id(layout, H[db], unit, counter, node, now_us, lease_us); // as reserve() does
        raise_fence(H[db]);
        return H[db];
    }
    uint64_t restart_word(const Mark& m)
    {
        GenState st;
        restart_from_mark(layout, st, m, node);
        return position_of(layout, st, node);
    }
    void join(int db, Backend& b)
    {
        const bool foreign = fence_of_mark(layout, H[db]) > fence_us; // not made by a reservation here
        const uint64_t own = restart_word(H[db]);
        if (!ready) {
            // the claim of this database, without preload, or a stream only it joined: its ids
            // are the pair's greatest
            const bool mine = !saved && (holder == db || holder == 10 + db) && !record_lost;
            const bool single = (holder == -1 || holder == db || holder == 10 + db) && !record_lost;
            const uint64_t fenced = !saved && !mine && (issued_ever || record_lost)
                ? restart_word(fence_mark(layout, fence_us, node)) : 0;
            uint64_t from = own;
            if (mine && P[db] >= 0)
                from = position_of(layout, resume_from_last_id(layout, P[db], H[db].unit, node), node);
            holder = single ? 10 + db : -2;
            const int64_t fence_before = fence_us, last_id = P[db];
            raise_fence(H[db]);
            P[db] = -1;
            const Mark fence = fence_mark(layout, fence_us, node);
            if (saved)
                cells.word = saved_word;
            slot::begin_setup<test::StdAtomics>(cells);
            // the core's words for the join (join_stream calls them), checked against the rule
            // written out here
            StreamJoin j;
            j.mark = H[db];
            j.fence_us = fence_before;
            j.has_node = layout.has(Field::Node);
            j.word_node = node;
            j.mine = mine;
            j.last_id = last_id;
            j.above_fence = fenced != 0;
            const StreamWords words = stream_words(layout, j);
            slot::exchange_word<test::StdAtomics>(cells, [&](uint64_t old) {
                const Position p = unpack_position(layout, old);
                const uint64_t rule = saved && p.last_unit >= 0 &&
                        mark_covers_id(layout, fence, p.last_unit, p.node, p.counter)
                    ? (foreign ? std::max(old, own) : old)
                    : std::max(from, fenced);
                const uint64_t word = stream_setup_word(layout, old, saved, words);
                EXPECT_EQ(word, rule);
                return word;
            });
            slot::reset_cells<test::StdAtomics>(cells, -1, -1);
            saved = false;
            ready = true;
            generation = slot::next_generation(generation);
            slot::publish_setup<test::StdAtomics>(cells, generation);
        } else {
            if (holder != 10 + db)
                holder = -2; // a second database joins
            const int64_t fence_before = fence_us;
            raise_fence(H[db]);
            P[db] = -1;
            StreamJoin j;
            j.mark = H[db];
            j.fence_us = fence_before;
            j.has_node = layout.has(Field::Node);
            j.word_node = node;
            EXPECT_EQ(stream_words(layout, j).floor(), foreign ? own : 0);
            if (foreign && own > cells.word) {
                slot::begin_setup<test::StdAtomics>(cells);
                slot::exchange_word<test::StdAtomics>(cells, [&](uint64_t old) { return std::max(old, own); });
                generation = slot::next_generation(generation);
                slot::publish_setup<test::StdAtomics>(cells, generation);
                ++raised_by_join;
            }
        }
        b.view = H[db];
        b.joined = true;
    }
    // One snowflake_nextval of backend i; -1: it waits for the clock; -3: refused (the claim).
    int64_t nextval(int64_t now, int i)
    {
        const int db = i % 2;
        Backend& b = backends[i];
        now_us = unit_start_us(layout, now) + static_cast<int64_t>(rng() % static_cast<uint64_t>(layout.unit_us));
        mono_us += static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * layout.unit_us));
        const uint64_t rnd = rng();
        if (fast) {
            if (!b.joined)
                join(db, b);
            auto view = [&](int64_t& unit, int64_t& counter) {
                GenState v;
                apply_mark(layout, v, b.view, node);
                unit = v.reserved_unit;
                counter = v.reserved_counter;
            };
            for (;;) {
                FastIssue fi;
                Step s{};
                if (slot::try_lock_free<test::StdAtomics>(cells, b.issuer, layout, word_step(layout), node, 0, rnd,
                                                          [&] { return now; }, view, fi)) {
                    s = Step{Step::Issue, fi.unit, fi.counter, 0};
                } else {
                    int64_t read_us = 0;
                    s = slot::locked_step<test::StdAtomics>(
                        cells, b.issuer, layout, node, 0, rnd, [&](int64_t& us, int64_t& mono) { us = now_us, mono = mono_us; },
                        view, read_us);
                }
                if (s.kind == Step::NeedReservation) {
                    b.view = mark_max(b.view, reserve(db, s.unit, s.counter));
                    continue;
                }
                if (s.kind == Step::WaitForClock)
                    return -1;
                EXPECT_TRUE(mark_covers_id(layout, H[db], s.unit, node, s.counter)) << "an id above its database's mark";
                issued_ever = true;
                ++shared_ids[db];
                return compose(layout, s.unit, node, s.counter, rnd);
            }
        }
        if (holder != db) {
            if (holder >= 0 && holder < 10 && rng() % 50 != 0)
                return -3; // refused: the holder is not idle
            // (holder -2: the stream's claim, nobody's)
            // the claim taken (no holder, or an idle one): above the fence unless never issued
            if (issued_ever || record_lost || holder != -1) {
                above_fence(db);
                raise_fence(H[db]);
                P[db] = -1;
                ++takeovers;
            }
            holder = db;
            for (int j = db; j < 4; j += 2)
                backends[j].started = false;
        }
        if (!b.started || P[db] < 0) {
            b.base = b.mark = H[db];
            b.started = true;
        }
        for (int attempt = 0; attempt < 40; ++attempt) {
            GenState st = rebuild_state_marks(layout, P[db] >= 0, P[db], b.base, b.mark, node);
            Step s = next(layout, st, now, rnd, 0, mono_us);
            if (s.kind == Step::NeedReservation) {
                b.mark = reserve(db, s.unit, s.counter);
                continue;
            }
            if (s.kind == Step::WaitForClock)
                return -1;
            EXPECT_TRUE(mark_covers_id(layout, H[db], s.unit, node, s.counter)) << "an id above its database's mark";
            issued_ever = true;
            ++slow_ids;
            P[db] = compose(layout, s.unit, node, s.counter, rnd);
            return P[db];
        }
        ADD_FAILURE() << "the path without shared memory does not converge";
        return -2;
    }
    void crash(bool promotion)
    {
        fresh();
        saved = false;
        P[0] = P[1] = -1;
        if (promotion)
            record_lost = true; // a standby made before the claims' directory
    }
    void clean_restart(bool preload)
    {
        if (fast && ready) {
            saved = true;
            saved_word = cells.word;
        }
        saved = saved && fast && preload;
        fresh();
        fast = preload;
    }
};

TEST(SnowflakeDurable, DatabasesSharingAStreamNeverRepeatAcrossCrashesAndPathSwitches)
{
    std::vector<Layout> layouts;
    for (const char* name : {"snowflake", "sonyflake", "display60"})
        layouts.push_back(builtin(name));
    for (const Layout& l : layouts) {
        SCOPED_TRACE(l.name);
        SharedStreamServer srv(l, l.has(Field::Node) ? 7 : 0);
        std::mt19937_64 rng(31);
        int64_t now = 10 * kHourUs / l.unit_us;
        std::unordered_set<int64_t> seen;
        int issued = 0;
        for (int i = 0; i < 200000; ++i) {
            const uint64_t r = rng() % 10000;
            if (r < 8000)
                now += static_cast<int64_t>(rng() % 2);
            else if (r < 9900)
                ;
            else if (r < 9930)
                now -= static_cast<int64_t>(rng() % 5000); // the clock steps back
            else if (r < 9945) {
                srv.crash(rng() % 3 == 0);
                now -= static_cast<int64_t>(rng() % 5000);
            } else if (r < 9960)
                srv.clean_restart(rng() % 3 != 0); // with preload, mostly
            else if (r < 9962) {
                // a dump from another server whose clock ran ahead restored into a database: its
                // mark, and a row with an id in its last unit, which no new id may repeat
                const int db = static_cast<int>(rng() % 2);
                const Mark restored{std::max(now, fence_mark(l, srv.fence_us, srv.node).unit) + 1 +
                                    static_cast<int64_t>(rng() % 2000)};
                if (fence_of_mark(l, restored) > srv.fence_us && !mark_covers(srv.H[db], restored)) {
                    srv.H[db] = mark_max(srv.H[db], restored);
                    seen.insert(compose(l, restored.unit, srv.node, 0, 0));
                    srv.backends[db].joined = srv.backends[db + 2].joined = false; // new sessions
                }
            }
            srv.lease_us = rng() % 2 == 0 ? static_cast<int64_t>(rng() % 50) * l.unit_us
                                          : static_cast<int64_t>(rng() % static_cast<uint64_t>(l.unit_us));
            const int64_t id = srv.nextval(now, static_cast<int>(rng() % 4));
            ASSERT_NE(id, -2);
            if (id == -1)
                ++now;
            if (id < 0)
                continue;
            ASSERT_TRUE(seen.insert(id).second) << "id " << id << " issued twice, step " << i;
            ++issued;
        }
        EXPECT_GT(issued, 100000);
        EXPECT_GT(srv.shared_ids[0], 10000);
        EXPECT_GT(srv.shared_ids[1], 10000);
        EXPECT_GT(srv.slow_ids, 1000);
        EXPECT_GT(srv.takeovers, 0);
        EXPECT_GT(srv.raised_by_join, 0);
    }
}

// ---- Restarts and drift ------------------------------------------------------------

TEST(SnowflakeDurable, ResumeSavedContinuesRightAfterTheLastId)
{
    const Layout& l = builtin("snowflake");
    GenState saved;
    saved.last_unit = 5000;
    saved.counter = 7;
    GenState s = resume_saved(saved, 6000);
    EXPECT_EQ(s.reserved_unit, 6000);
    Step st = next(l, s, 4000, 0); // the clock behind: the same unit, the next counter
    EXPECT_EQ(st.kind, Step::Issue);
    EXPECT_EQ(st.unit, 5000);
    EXPECT_EQ(st.counter, 8);
    EXPECT_EQ(st.clock_back, 0); // the reading before the shutdown does not count
    s = resume_saved(saved, 6000);
    st = next(l, s, 5500, 0); // the clock ahead: its unit, not the mark's
    EXPECT_EQ(st.unit, 5500);
    // A saved state above the mark (impossible) or empty falls back to the mark.
    s = resume_saved(saved, 4000);
    EXPECT_EQ(next(l, s, 100, 0).unit, 4001);
    s = resume_saved(GenState{}, 4000);
    EXPECT_EQ(next(l, s, 100, 0).unit, 4001);
}

TEST(SnowflakeDurable, CrashesInQuickSuccessionStayWithinOneLease)
{
    // Each crash loses the state; the next id starts above the durable mark. Whatever the
    // number of crashes, an id issued right after a restart (which takes at least one unit) is
    // at most the lease ahead of the clock, never a lease per crash.
    for (const char* name : {"snowflake", "sonyflake", "display60", "nonsequential"}) {
        SCOPED_TRACE(name);
        const Layout& l = builtin(name);
        const int64_t lease = lease_units(l, 10 * 1000 * kMs); // 10 s
        std::mt19937_64 rng(12);
        int64_t now = 10 * kHourUs / l.unit_us, H = -1, prev = -1;
        GenState st;
        for (int i = 0; i < 20000; ++i) {
            const uint64_t r = rng() % 100;
            bool restarted = false;
            if (r < 10) { // a crash, then a restart that takes 1 to 3 units
                restart_from(st = GenState{}, H);
                now += 1 + static_cast<int64_t>(rng() % 3);
                restarted = true;
            } else {
                now += static_cast<int64_t>(rng() % 2);
            }
            for (;;) {
                Step s = next(l, st, now, rng());
                if (s.kind == Step::NeedReservation) {
                    H = std::max(H, reservation_target(l, s.unit, now, lease));
                    st.reserved_unit = H;
                    continue;
                }
                if (s.kind == Step::WaitForClock) {
                    ++now;
                    continue;
                }
                ASSERT_LE(s.unit, H);
                if (restarted) {
                    ASSERT_LE(s.unit, now + lease) << "step " << i;
                }
                const int64_t id = compose(l, s.unit, 1, s.counter, rng());
                ASSERT_GT(id, prev);
                prev = id;
                break;
            }
        }
    }
}


TEST(SnowflakeSyncStandbys, MeaningFollowsTheRunningServersVersion)
{
    struct Case {
        int version;
        bool bits;
    };
    const Case cases[] = {
        {120022, false}, {130020, false}, {130021, true},  {140017, false}, {140018, true},
        {150000, false}, {150012, false}, {150013, true},  {150020, true},  {160008, false},
        {160009, true},  {170004, false}, {170005, true},  {180000, true},  {190001, true},
    };
    for (const Case& c : cases) {
        SCOPED_TRACE(c.version);
        EXPECT_EQ(sync_standbys_status_bits(c.version), c.bits);
        if (c.bits) {
            EXPECT_EQ(sync_standbys_required(c.version, 0), -1); // the checkpointer has not read it yet
            EXPECT_EQ(sync_standbys_required(c.version, 1), 0); // read, empty: the case old code read as "required"
            EXPECT_EQ(sync_standbys_required(c.version, 3), 1);
            EXPECT_EQ(sync_standbys_required(c.version, 2), -1); // defined but not initialised: not known
        } else {
            EXPECT_EQ(sync_standbys_required(c.version, 0), 0);
            EXPECT_EQ(sync_standbys_required(c.version, 1), 1); // true: the case new code read as "not required"
        }
    }
}

// ---- Marks inside a unit ----------------------------------------------------


// A mark reads back as what it covers: whole units as the plain unit numbers every release
// wrote (so a 1.2 mark, a dump's setval of one, reads as the unit it meant), a place inside a
// unit above every unit of the layout; when the fields take all 63 bits the counter's low bit
// is rounded up (the mark covers one counter more, never less).
TEST(SnowflakeMark, EncodesInsideAUnitAboveEveryUnitAndReadsOldMarks)
{
    std::mt19937_64 rng(41);
    std::vector<Layout> layouts = all_layouts();
    for (const Layout& l : long_unit_layouts())
        layouts.push_back(l);
    for (const Layout& l : layouts) {
        SCOPED_TRACE(l.name);
        const int64_t max_unit = l.max_value(Field::Time);
        const int64_t space = counter_space(l);
        EXPECT_EQ(encode_mark(l, Mark{}), -1);
        EXPECT_EQ(decode_mark(l, -1), Mark{});
        for (int64_t u : {int64_t{0}, int64_t{1}, max_unit / 2, max_unit}) {
            EXPECT_EQ(encode_mark(l, whole(u)), u); // as before 1.3
            EXPECT_EQ(decode_mark(l, u), whole(u)); // a 1.2 mark: the whole unit
        }
        for (int i = 0; i < 2000; ++i) {
            const int64_t unit = static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_unit) + 1));
            const int64_t node = l.has(Field::Node) ? static_cast<int64_t>(rng() % (static_cast<uint64_t>(l.max_value(Field::Node)) + 1)) : 0;
            const int64_t counter = static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            const Mark m = inside(unit, node, counter);
            const int64_t v = encode_mark(l, m);
            ASSERT_GE(v, -1);
            const Mark back = decode_mark(l, v);
            ASSERT_TRUE(mark_covers(back, m)) << unit << "/" << node << "/" << counter;
            ASSERT_EQ(back.unit, unit);
            if (space == 1 || counter >= space - 2) {
                EXPECT_TRUE(back.whole() || back.counter <= counter + 1);
                continue;
            }
            ASSERT_GT(v, max_unit); // never read as a whole unit
            EXPECT_FALSE(back.whole());
            EXPECT_EQ(back.node, node);
            const bool all_bits = l[Field::Time].width + l[Field::Node].width +
                    l[l.has(Field::Seq) ? Field::Seq : Field::Rand].width >= kMaxLayoutBits;
            EXPECT_EQ(back.counter, all_bits ? (counter | 1) : counter);
            // places inside a unit keep their order as numbers
            const Mark later = inside(unit, node, std::min(counter + 2, space - 3 < 0 ? 0 : space - 3));
            if (later.counter > counter + 1) {
                EXPECT_LT(v, encode_mark(l, later));
            }
        }
    }
    // the built-in snowflake (41 + 10 + 12 bits): an example to read
    const Layout& s = builtin("snowflake");
    EXPECT_EQ(encode_mark(s, inside(1000, 7, 41)), (int64_t{1} << 41) + (((int64_t{1000} << 22) | (7 << 12) | 41) >> 1));
    EXPECT_EQ(decode_mark(s, encode_mark(s, inside(1000, 7, 41))), inside(1000, 7, 41));
    EXPECT_EQ(decode_mark(s, encode_mark(s, inside(1000, 7, 40))), inside(1000, 7, 41));
    EXPECT_EQ(encode_mark(s, inside(1000, 7, 4094)), 1000); // the rest of the unit: whole
    // a number beyond every mark (a setval by hand) is that whole unit, as before
    EXPECT_EQ(decode_mark(s, std::numeric_limits<int64_t>::max()), whole(std::numeric_limits<int64_t>::max()));
}

TEST(SnowflakeMark, MaxCoversBothAndTwoNodesInAUnitMakeItWhole)
{
    const Layout l = long_unit_layouts()[0];
    EXPECT_EQ(mark_max(inside(5, 1, 10), inside(5, 1, 20)), inside(5, 1, 20));
    EXPECT_EQ(mark_max(inside(5, 1, 10), inside(4, 2, 20)), inside(5, 1, 10));
    EXPECT_EQ(mark_max(inside(5, 1, 10), inside(5, 2, 3)), whole(5));
    EXPECT_EQ(mark_max(inside(5, 1, 10), whole(5)), whole(5));
    EXPECT_EQ(mark_max(whole(4), inside(5, 1, 0)), inside(5, 1, 0));
    EXPECT_EQ(mark_max(Mark{}, inside(5, 1, 0)), inside(5, 1, 0));
    EXPECT_TRUE(mark_covers(whole(5), inside(5, 3, 900)));
    EXPECT_FALSE(mark_covers(inside(5, 1, 10), inside(5, 2, 0)));
    EXPECT_EQ(mark_min(inside(5, 1, 10), inside(5, 1, 3)), inside(5, 1, 3));
    EXPECT_EQ(mark_min(inside(5, 1, 10), inside(5, 2, 3)), whole(4));
    EXPECT_EQ(mark_min(whole(9), Mark{}), Mark{});
    // coverage for a node: a place inside a unit covers another node's ids of the units before only
    EXPECT_TRUE(mark_covers_id(l, inside(5, 1, 10), 5, 1, 10));
    EXPECT_FALSE(mark_covers_id(l, inside(5, 1, 10), 5, 1, 11));
    EXPECT_FALSE(mark_covers_id(l, inside(5, 1, 10), 5, 2, 0));
    EXPECT_TRUE(mark_covers_id(l, inside(5, 1, 10), 4, 2, 1023));
    EXPECT_TRUE(mark_covers_id(l, whole(5), 5, 2, 1023));
    Layout no_node = parse_layout("nn", 0, "time:40,seq:10", 60 * 1000 * kMs);
    EXPECT_TRUE(mark_covers_id(no_node, inside(5, 0, 10), 5, 0, 10));
}

// A reservation covers a lease's worth of places from the step (W = ceil(counters * lease /
// unit)), but never passes the lease point (the clock plus the lease, as a counter in
// proportion to the time elapsed in its unit); a step beyond the lease point gets a block.
TEST(SnowflakeMark, ReservationCoversALeasesWorthUpToTheLeasePoint)
{
    const Layout l = long_unit_layouts()[0]; // 1024 ids per minute: W = 18 for a 1 s lease
    const int64_t minute = 60 * 1000 * kMs, lease = 1000 * kMs;
    const int64_t u = 1000, t = unit_start_us(l, u) + 30 * 1000 * kMs; // half past
    // at the start of the unit's counters, half past: W from the step, not the lease point
    // (31/60 * 1024 = 529), which a crash would skip down to the ids
    EXPECT_EQ(reservation_mark(l, u, 0, 3, t, lease, Mark{}), inside(u, 3, 17));
    EXPECT_EQ(reservation_mark(l, u, 300, 3, t, lease, Mark{}), inside(u, 3, 317));
    // near the lease point: no further than it
    EXPECT_EQ(reservation_mark(l, u, 520, 3, t, lease, Mark{}), inside(u, 3, 31 * 1024 / 60));
    // an id ahead of the lease point: a block of the lease's share of the counters (18)
    EXPECT_EQ(reservation_mark(l, u, 600, 3, t, lease, Mark{}), inside(u, 3, 600 + 18 - 1));
    EXPECT_EQ(reservation_mark(l, u, 1020, 3, t, lease, Mark{}), whole(u)); // not past the unit
    // never lower than the current mark; two nodes in one unit make it whole
    EXPECT_EQ(reservation_mark(l, u, 0, 3, t, lease, whole(u + 2)), whole(u + 2));
    EXPECT_EQ(reservation_mark(l, u, 0, 3, t, lease, inside(u, 4, 700)), whole(u));
    // the lease point in the next unit near the end of one: W places, into the next unit
    const int64_t end = unit_start_us(l, u) + minute - 1;
    EXPECT_EQ(reservation_mark(l, u, 0, 3, end, lease, Mark{}), inside(u, 3, 17));
    EXPECT_EQ(reservation_mark(l, u, 1010, 3, end, lease, Mark{}), inside(u + 1, 3, 1010 + 17 - 1024));
    const int64_t late = unit_start_us(l, u) + minute - lease / 2; // the lease point half a second into u + 1
    EXPECT_EQ(reservation_mark(l, u, 1020, 3, late, lease, Mark{}), inside(u + 1, 3, (lease / 2) * 1024 / minute));
    // lease 0: the whole unit, as before
    EXPECT_EQ(reservation_mark(l, u, 5, 3, t, 0, Mark{}), whole(u));
    // a unit shorter than the lease: W places cross whole units (4096 * 1000 here), up to the lease point
    const Layout& s = builtin("snowflake");
    const int64_t su = 5000, st = unit_start_us(s, su) + 250;
    EXPECT_EQ(reservation_mark(s, su, 7, 3, st, lease, Mark{}), inside(su + 1000, 3, 6));
    EXPECT_EQ(reservation_mark(s, su, 4000, 3, st, lease, Mark{}), inside(su + 1000, 3, 250 * 4096 / 1000));
    EXPECT_EQ(reservation_mark(s, su + 2000, 7, 3, st, lease, Mark{}), whole(su + 2000)); // beyond: the rest of its unit
    // at the end of the time field
    const int64_t top = s.max_value(Field::Time);
    EXPECT_EQ(reservation_mark(s, top, 0, 3, unit_start_us(s, top), lease, Mark{}), whole(top));
    EXPECT_EQ(reservation_mark(s, top - 1, 5, 3, unit_start_us(s, top - 1), lease, Mark{}), whole(top));
}

// A restart resumes right after the mark inside its unit, on the mark's node; on any other
// node it starts the next unit; a whole unit is passed as before.
TEST(SnowflakeMark, RestartResumesInsideTheMarkedUnit)
{
    const Layout l = long_unit_layouts()[0];
    GenState st;
    restart_from_mark(l, st, inside(100, 3, 40), 3);
    Step s = next(l, st, 99, 0);
    ASSERT_EQ(s.kind, Step::NeedReservation);
    EXPECT_EQ(s.unit, 100);
    EXPECT_EQ(s.counter, 41);
    st.reserved_counter = 60;
    s = next(l, st, 99, 0);
    ASSERT_EQ(s.kind, Step::Issue);
    EXPECT_EQ(s.unit, 100);
    EXPECT_EQ(s.counter, 41);

    GenState other;
    restart_from_mark(l, other, inside(100, 3, 40), 4);
    EXPECT_EQ(other.reserved_unit, 99); // node 4's ids in unit 100 are not covered
    s = next(l, other, 99, 0);
    ASSERT_EQ(s.kind, Step::NeedReservation);
    EXPECT_EQ(s.unit, 101);

    GenState w;
    restart_from_mark(l, w, whole(100), 3);
    s = next(l, w, 99, 0);
    ASSERT_EQ(s.kind, Step::NeedReservation);
    EXPECT_EQ(s.unit, 101);

    // a state already past the mark never goes back
    GenState past;
    past.last_unit = 150;
    past.counter = 2;
    restart_from_mark(l, past, inside(100, 3, 40), 3);
    EXPECT_EQ(past.last_unit, 150);
    EXPECT_EQ(past.counter, kCounterSpent);
}

// Crashes in a row on layouts whose unit is longer than the lease: each restart (taking 0.05
// to 2 s) resumes inside the marked unit, and a few ids follow at most at the layout's pace.
// Every id then lies at most one lease ahead of the clock, however many crashes came in a row,
// and stays above every earlier id. The whole-unit mark of 1.2 (reservation_target and
// restart_from, run beside it) adds a unit per crash: the reason for marks inside a unit.
TEST(SnowflakeDurable, CrashesInARowDoNotAddUpOnLongUnits)
{
    const int64_t lease_us = 1000 * kMs;
    for (const Layout& l : long_unit_layouts()) {
        SCOPED_TRACE(l.name);
        const int64_t pace_us = l.unit_us / counter_space(l) + 1; // the layout's capacity
        std::mt19937_64 rng(43);
        int64_t now = unit_start_us(l, 1000) + static_cast<int64_t>(rng() % static_cast<uint64_t>(l.unit_us));
        Mark H;
        int64_t prev = -1, worst = INT64_MIN;
        // 1.2's arithmetic: whole units
        int64_t old_H = -1, old_worst = INT64_MIN;
        GenState old_st;
        for (int crash = 0; crash < 300; ++crash) {
            GenState st;
            restart_from_mark(l, st, H, 3);
            restart_from(old_st = GenState{}, old_H);
            now += 50 * kMs + static_cast<int64_t>(rng() % (2000 * kMs));
            const int ids = 1 + static_cast<int>(rng() % 5);
            for (int i = 0; i < ids; ++i) {
                now += pace_us * (1 + static_cast<int64_t>(rng() % 3));
                const uint64_t r = rng();
                for (;;) {
                    const Step s = next(l, st, unit_of(l, now), r, 0, now);
                    if (s.kind == Step::NeedReservation) {
                        H = reservation_mark(l, s.unit, s.counter, 3, now, lease_us, H);
                        apply_mark(l, st, H, 3);
                        continue;
                    }
                    if (s.kind == Step::WaitForClock) {
                        now = unit_start_us(l, s.unit);
                        continue;
                    }
                    ASSERT_TRUE(mark_covers_id(l, H, s.unit, 3, s.counter));
                    const int64_t id = compose(l, s.unit, 3, s.counter, r);
                    ASSERT_GT(id, prev) << "crash " << crash;
                    prev = id;
                    worst = std::max(worst, unit_start_us(l, s.unit) - now);
                    ASSERT_LE(unit_start_us(l, s.unit) - now, lease_us) << "crash " << crash;
                    break;
                }
                for (;;) {
                    const Step s = next(l, old_st, unit_of(l, now), r, 0, now);
                    if (s.kind == Step::NeedReservation) {
                        old_H = std::max(old_H, reservation_target(l, s.unit, unit_of(l, now), lease_units(l, lease_us)));
                        old_st.reserved_unit = old_H;
                        continue;
                    }
                    if (s.kind == Step::Issue)
                        old_worst = std::max(old_worst, unit_start_us(l, s.unit) - now);
                    break;
                }
            }
        }
        EXPECT_LE(worst, lease_us);
        if (l.unit_us >= 60 * 1000 * kMs) { // restarts much shorter than the unit
            EXPECT_GT(old_worst, 3 * l.unit_us) << "the whole-unit mark adds a unit per crash";
        }
    }
}

// A crash costs at most a lease's worth of the layout's capacity, W = ceil(counters per unit
// * lease / unit) places, on every unit: the restart resumes at most W places past the place
// the next id would have taken, and the ids that fit the rest of the unit come without
// waiting for the next one. First the case that showed it, in arithmetic: a minute of 2^18
// counters, 1,000 ids 20 s into the minute, an immediate stop. A lease (1 s) is worth 4,370
// counters; the mark at the lease point (21/60 of the minute) skipped 90,751, and a batch
// that fit the rest of the minute waited for the next one. Then both paths of the server
// model under random load (bursts above the capacity, a few ids, units running out), a crash
// mid-unit after each, on second, minute, hour and day units (one with a rand counter),
// leases of 1 s and of a tenth of the unit.
TEST(SnowflakeDurable, ACrashSkipsAtMostALeasesWorthOfCounters)
{
    const int64_t s = 1000 * kMs;
    {
        const Layout l = parse_layout("min18", 1704067200 * s, "time:36,node:4,seq:18", 60 * s);
        const int64_t space = counter_space(l), lease_us = s;
        const int64_t worth = (space * lease_us + l.unit_us - 1) / l.unit_us;
        ASSERT_EQ(worth, 4370);
        Mark H;
        // one backend's generator with the fake durable mark: the steps as the adapter takes them
        auto issue = [&](GenState& st, int64_t now_us) {
            for (;;) {
                const Step step = next(l, st, unit_of(l, now_us), 0, 0, now_us);
                if (step.kind != Step::NeedReservation)
                    return step;
                H = reservation_mark(l, step.unit, step.counter, 3, now_us, lease_us, H);
                apply_mark(l, st, H, 3);
            }
        };
        const int64_t now = unit_start_us(l, 1000) + 20 * s;
        GenState st;
        restart_from_mark(l, st, H, 3);
        Step last{};
        for (int i = 0; i < 1000; ++i) {
            last = issue(st, now + i * kMs);
            ASSERT_EQ(last.kind, Step::Issue);
        }
        EXPECT_EQ(last.counter, 999);
        GenState after; // the crash: the state is gone, H is what the WAL kept
        restart_from_mark(l, after, H, 3);
        const int64_t restart_us = now + 1001 * kMs;
        const Step first = issue(after, restart_us);
        ASSERT_EQ(first.kind, Step::Issue);
        EXPECT_EQ(first.unit, last.unit);
        const int64_t skipped = first.counter - last.counter - 1;
        EXPECT_LE(skipped, worth) << "the crash skipped " << skipped << " counters";
        // the rest of the minute the crash left, with the clock still in it: no wait
        const int64_t rest = space - 1 - last.counter - worth;
        int64_t waited_at = -1;
        for (int64_t i = 1; i < rest && waited_at < 0; ++i) {
            const Step step = issue(after, restart_us);
            if (step.kind != Step::Issue || step.unit != last.unit)
                waited_at = i;
        }
        EXPECT_EQ(waited_at, -1) << "id " << waited_at << " of the " << rest
                                 << " that fit the minute waited for the next one";
    }

    for (const Layout& l : long_unit_layouts()) {
        const int64_t space = counter_space(l);
        for (const int64_t lease_us : {s, l.unit_us / 10}) {
            const int64_t worth = std::max<int64_t>(1, (space * lease_us + l.unit_us - 1) / l.unit_us);
            for (const bool fast : {true, false}) {
                SCOPED_TRACE(l.name + (fast ? " shared memory, lease " : " no shared memory, lease ") +
                             std::to_string(lease_us));
                Server srv(l);
                srv.lease_us = lease_us;
                if (!fast)
                    srv.clean_restart(false);
                std::mt19937_64 rng(26);
                int64_t now = 1000, prev = -1, worst = -1;
                int measured = 0;
                for (int crash = 0; crash < 400; ++crash) {
                    // load: a burst, or a few ids; the clock moves on to the next unit at times
                    if (rng() % 8 == 0)
                        ++now;
                    const uint64_t most = rng() % 4 == 0 ? 3 * static_cast<uint64_t>(worth) : 5;
                    const int64_t n = 1 + static_cast<int64_t>(rng() % most);
                    int64_t last = -1;
                    for (int64_t i = 0; i < n; ++i) {
                        int64_t id = srv.nextval(now, 3, static_cast<int>(rng() % 2));
                        ASSERT_NE(id, -2);
                        if (id == -1) { // the unit is spent: the clock reaches the next one
                            ++now;
                            id = srv.nextval(now, 3, static_cast<int>(rng() % 2));
                        }
                        ASSERT_GE(id, 0);
                        ASSERT_GT(id, prev);
                        prev = last = id;
                    }
                    srv.crash(); // mid-unit: the restart is quicker than the unit
                    int64_t first = srv.nextval(now, 3, static_cast<int>(rng() % 2));
                    if (first == -1) { // the crash left nothing of the unit: it was within W of its end
                        EXPECT_LE(space - 1 - counter_of(l, last), worth) << "crash " << crash;
                        ++now;
                        first = srv.nextval(now, 3, 0);
                    }
                    ASSERT_GT(first, prev) << "crash " << crash;
                    prev = first;
                    if (unit_of_id(l, first) == unit_of_id(l, last)) {
                        const int64_t skipped = counter_of(l, first) - counter_of(l, last) - 1;
                        worst = std::max(worst, skipped);
                        ++measured;
                        ASSERT_LE(skipped, worth) << "crash " << crash;
                    } else if (unit_of_id(l, first) == unit_of_id(l, last) + 1 && l.has(Field::Seq)) {
                        // the mark crossed into the next unit (a unit no longer than the lease): W places in all
                        ++measured;
                        ASSERT_LE(space - 1 - counter_of(l, last) + counter_of(l, first), worth) << "crash " << crash;
                    }
                }
                EXPECT_GT(measured, 300);
                EXPECT_LE(worst, worth);
            }
        }
    }
}

// The server's fence against the marks it stands for: the fence a mark raises it to gives back
// a mark that covers it, for every layout (short and long units, with and without a node or a
// counter field); the fence never spends a unit it does not reach; a higher fence never covers
// less; and a fence inside a unit leaves the rest of that unit in proportion, so that taking a
// claim over costs what a crash costs, not the unit.
TEST(SnowflakeDurable, FenceCoversEveryMarkItStandsFor)
{
    std::mt19937_64 rng(20261128);
    const Layout minute = parse_layout("minute", 1700000000000000, "time:30,node:10,seq:20", 60000000);
    const Layout day = parse_layout("days", 1700000000000000, "time:20,seq:1", 86400000000LL);
    const Layout nocounter = parse_layout("bare", 0, "time:50,node:10", 1000);
    const Layout layouts[] = {builtin("snowflake"), builtin("sonyflake"), builtin("display60"),
                              builtin("nonsequential"), minute, day, nocounter};
    for (const Layout& l : layouts) {
        EXPECT_EQ(fence_mark(l, 0, 0).unit, -1) << l.name;
        EXPECT_EQ(fence_mark(l, l.epoch_us, 0).unit, -1) << l.name; // no unit starts before the epoch
        EXPECT_EQ(fence_of_mark(l, Mark{}), 0) << l.name;
        const int64_t space = counter_space(l);
        const int64_t node = l.has(Field::Node) ? 5 : 0;
        for (int i = 0; i < 3000; i++) {
            const int64_t unit = int64_t(rng() % uint64_t(std::min<int64_t>(l.max_value(Field::Time), 1LL << 30)));
            Mark m;
            m.unit = unit;
            if (i % 3 != 0) {
                m.node = node;
                m.counter = int64_t(rng() % uint64_t(space));
                if (m.counter >= space - 1)
                    m = Mark{unit, 0, kCounterSpent};
            }
            const int64_t f = fence_of_mark(l, m);
            const Mark back = fence_mark(l, f, node);
            EXPECT_TRUE(mark_covers(back, m)) << l.name << " unit " << unit << " counter " << m.counter;
            // the oracle: unit u starts at epoch + u * unit_us; the fence lies inside the mark's unit
            const __int128 start = __int128(l.epoch_us) + __int128(unit) * l.unit_us;
            EXPECT_GT(f, int64_t(start)) << l.name;
            EXPECT_LE(f, int64_t(start + l.unit_us)) << l.name;
            EXPECT_FALSE(mark_covers_id(l, back, unit + 1, node, 0)) << l.name; // the next unit is free
            // a fence in the unit's first half leaves its second half free (counters in proportion)
            if (space >= 4 && l.unit_us >= 4) {
                const Mark half = fence_mark(l, int64_t(start) + l.unit_us / 2, node);
                EXPECT_FALSE(mark_covers_id(l, half, unit, node, space - 1)) << l.name;
            }
            // monotone
            const int64_t f2 = f + int64_t(rng() % uint64_t(3 * l.unit_us));
            EXPECT_TRUE(mark_covers(fence_mark(l, f2, node), back)) << l.name;
        }
        // past the layout's end: its last unit, so that the generator stops rather than wraps
        const Mark end = fence_mark(l, std::numeric_limits<int64_t>::max(), node);
        EXPECT_TRUE(end.whole()) << l.name;
    }
}
