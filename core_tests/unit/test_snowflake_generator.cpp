// Unit tests of the snowflake core: the generator step driven by a fake clock, running ahead, and the lock-free position.
#include "snowflake_fixtures.h"

using namespace idseq;
using namespace idseq::sf_test;

// ---- Generator ------------------------------------------------------------------------------



TEST(SnowflakeGenerator, StrictlyIncreasingWhenTheClockStepsBack)
{
    for (const Layout& l : all_layouts()) {
        if (!long_lived(l) || l.name == "daily" || l.name == "t63")
            continue; // no room for an hour of step back; daily's units last a day; t63 starts in 1970
        SCOPED_TRACE(l.name);
        Driver d(l);
        std::mt19937_64 rng(3);
        int64_t clock = unit_start_us(l, 5 * kHourUs / l.unit_us + 17);
        int64_t prev = -1, behind_ids = 0, tolerated = 0;
        for (int i = 0; i < 100000; ++i) {
            if (i == 30000)
                clock -= l.unit_us; // back by exactly one unit
            else if (i == 60000)
                clock -= kHourUs; // back by an hour
            else
                clock += static_cast<int64_t>(rng() % 3);
            int64_t last_unit = d.state.last_unit;
            if (i == 30000 || i == 60000) // the gap the step back opened, plus one unit
                tolerated = std::max(tolerated, last_unit - unit_of(l, clock) + 1);
            int waits = d.waits;
            int64_t id = d.issue(clock);
            ASSERT_GT(id, prev) << "id " << i;
            prev = id;
            if (unit_of(l, clock) < last_unit) {
                ++behind_ids;
                // a clock behind us never makes anyone wait for it to catch up: a spent unit
                // waits one unit of the clock at most (Driver checks), and the ids never get
                // further ahead of the clock than the step back put them
                EXPECT_LE(d.waits - waits, 1);
                EXPECT_LE(d.state.last_unit - unit_of(l, clock), tolerated) << "id " << i;
            }
        }
        EXPECT_GT(behind_ids, 1000);
        EXPECT_EQ(d.warnings, 2);
    }
}

TEST(SnowflakeGenerator, ReportsTheSizeOfAStepBackOnce)
{
    const Layout& l = builtin("snowflake");
    GenState s;
    s.reserved_unit = 1000000;
    EXPECT_EQ(next(l, s, 5000, 0).clock_back, 0);
    EXPECT_EQ(next(l, s, 5003, 0).clock_back, 0);
    Step back = next(l, s, 4000, 0);
    EXPECT_EQ(back.kind, Step::Issue);
    EXPECT_EQ(back.clock_back, 1003);
    EXPECT_EQ(back.unit, 5003);
    EXPECT_EQ(back.counter, 1);
    EXPECT_EQ(next(l, s, 4000, 0).clock_back, 0);
    EXPECT_EQ(next(l, s, 4001, 0).clock_back, 0);

    // Reported until an id is issued: a NeedReservation step carries it too.
    s.reserved_unit = s.last_unit;
    finish_unit(s);
    Step need = next(l, s, 3000, 0);
    EXPECT_EQ(need.kind, Step::NeedReservation);
    EXPECT_EQ(need.clock_back, 1001);
    s.reserved_unit = need.unit;
    EXPECT_EQ(next(l, s, 3000, 0).clock_back, 1001);
    EXPECT_EQ(next(l, s, 3000, 0).clock_back, 0);
}

TEST(SnowflakeGenerator, FrozenClockWaitsForTheNextUnit)
{
    for (const char* name : {"snowflake", "display60", "nonsequential", "per_unit"}) {
        SCOPED_TRACE(name);
        std::vector<Layout> layouts = all_layouts();
        const Layout& l = *std::find_if(layouts.begin(), layouts.end(), [&](const Layout& x) { return x.name == name; });
        GenState s;
        const int64_t now = 123456;
        Step first = next(l, s, now, 0);
        ASSERT_EQ(first.kind, Step::NeedReservation);
        EXPECT_EQ(first.unit, now);
        EXPECT_EQ(s.last_unit, -1);
        s.reserved_unit = now + 1;

        int64_t issued = 0, prev = -1;
        for (;;) {
            Step st = next(l, s, now, 0);
            if (st.kind != Step::Issue) {
                ASSERT_EQ(st.kind, Step::WaitForClock);
                EXPECT_EQ(st.unit, now + 1);
                break;
            }
            EXPECT_EQ(st.unit, now);
            int64_t id = compose(l, st.unit, 0, st.counter, 0);
            ASSERT_GT(id, prev);
            prev = id;
            ++issued;
        }
        EXPECT_EQ(issued, counter_space(l)); // random64 = 0: a rand counter starts at 0 too
        // Waiting does not change the state, however often it is asked.
        const GenState frozen = s;
        for (int i = 0; i < 3; ++i) {
            Step st = next(l, s, now, 99);
            EXPECT_EQ(st.kind, Step::WaitForClock);
            EXPECT_EQ(s.last_unit, frozen.last_unit);
            EXPECT_EQ(s.counter, frozen.counter);
        }
        // The clock moves on: the next unit, counter from the start.
        Step st = next(l, s, now + 1, 0);
        ASSERT_EQ(st.kind, Step::Issue);
        EXPECT_EQ(st.unit, now + 1);
        EXPECT_EQ(st.counter, 0);
        EXPECT_GT(compose(l, st.unit, 0, st.counter, 0), prev);
        // ... and the unit after that needs a reservation first.
        finish_unit(s);
        EXPECT_EQ(next(l, s, now + 2, 0).kind, Step::NeedReservation);
    }
}

TEST(SnowflakeGenerator, ReservationComesBeforeIssue)
{
    const Layout& l = builtin("snowflake");
    for (int64_t ahead : {0, 10}) {
        Driver d(l, ahead);
        int64_t clock = unit_start_us(l, 1000);
        std::set<int64_t> units;
        for (int i = 0; i < 20000; ++i) {
            clock += 7; // ~143 ids per unit
            Step s = d.step(unit_of(l, clock));
            ASSERT_EQ(s.kind, Step::Issue);
            units.insert(s.unit);
        }
        // One reservation per unit when reserving exactly, one per 11 units with 10 ahead.
        EXPECT_EQ(static_cast<size_t>(d.reservations), ahead == 0 ? units.size() : (units.size() + 10) / 11);
        EXPECT_GE(d.durable, *units.rbegin());
        EXPECT_LE(d.durable, *units.rbegin() + ahead);
    }

    // The very first call asks for a reservation and leaves the state untouched.
    GenState s;
    Step st = next(l, s, 42, 0);
    EXPECT_EQ(st.kind, Step::NeedReservation);
    EXPECT_EQ(st.unit, 42);
    EXPECT_EQ(s.last_unit, -1);
    EXPECT_EQ(s.reserved_unit, -1);
    s.reserved_unit = 41; // not enough
    EXPECT_EQ(next(l, s, 42, 0).kind, Step::NeedReservation);
    s.reserved_unit = 42;
    EXPECT_EQ(next(l, s, 42, 0).kind, Step::Issue);
}

TEST(SnowflakeGenerator, RestartContinuesAboveTheHighWaterMark)
{
    for (const Layout& l : builtin_layouts()) {
        SCOPED_TRACE(l.name);
        Driver d(l, 1000); // reserve 1000 units ahead, so the mark runs ahead of the clock
        int64_t clock = unit_start_us(l, 50000000);
        int64_t max_before = -1;
        for (int i = 0; i < 5000; ++i) {
            clock += 3;
            max_before = std::max(max_before, d.issue(clock));
        }
        const int64_t durable = d.durable;
        ASSERT_GT(durable, unit_of(l, clock));

        // Crash: the shared state is gone, the clock is set back an hour before the restart.
        Driver r(l, 1000);
        r.durable = durable;
        restart_from(r.state, durable);
        clock -= kHourUs;
        Step first = next(l, r.state, unit_of(l, clock), 0);
        ASSERT_EQ(first.kind, Step::NeedReservation); // the mark must move before the first id
        EXPECT_EQ(first.unit, durable + 1);
        int64_t prev = max_before;
        const int64_t gap = durable - unit_of(l, clock); // how far the restart put the ids ahead
        for (int i = 0; i < 5000; ++i) {
            clock += 3;
            const int waits = r.waits;
            int64_t id = r.issue(clock);
            ASSERT_GT(id, prev);
            prev = id;
            if (i == 0) {
                EXPECT_EQ(unpack(l, id).ts_us, unit_start_us(l, durable + 1));
            }
            // no waiting for the clock to catch up (a spent unit waits one unit at most), and
            // ids never get further ahead of the clock than the restart put them, plus a unit
            EXPECT_LE(r.waits - waits, 1);
            EXPECT_LE(r.state.last_unit - unit_of(l, clock), gap + 1);
        }
        EXPECT_EQ(r.warnings, 0); // a mark ahead of the clock is not a clock step back

        // A restart with the mark behind the clock resumes at the clock's unit.
        GenState s;
        restart_from(s, 100);
        s.reserved_unit = 10000;
        Step st = next(l, s, 5000, 0);
        EXPECT_EQ(st.kind, Step::Issue);
        EXPECT_EQ(st.unit, 5000);
        EXPECT_EQ(st.counter, 0);

        // restart_from never moves a state backwards, and it ends the current unit.
        restart_from(s, 10);
        EXPECT_EQ(s.last_unit, 5000);
        EXPECT_EQ(s.reserved_unit, 10);
        EXPECT_EQ(next(l, s, 5000, 0).kind, Step::WaitForClock);
        Step need = next(l, s, 4000, 0);
        EXPECT_EQ(need.kind, Step::NeedReservation);
        EXPECT_EQ(need.unit, 5001);
    }
}

TEST(SnowflakeGenerator, CrashesAndClockJumpsNeverRepeatAnId)
{
    // A server's whole life: random clock behaviour, crashes at random points (the shared
    // state is lost, only the durable mark survives), random reservation sizes.
    for (const Layout& l : all_layouts()) {
        if (!long_lived(l) || l.name == "daily" || l.name == "t63")
            continue;
        SCOPED_TRACE(l.name);
        std::mt19937_64 rng(4);
        Driver d(l, 3);
        int64_t clock = unit_start_us(l, 2 * kHourUs / l.unit_us);
        int64_t prev = -1;
        for (int i = 0; i < 100000; ++i) {
            uint64_t r = rng() % 1000;
            if (r < 900)
                clock += static_cast<int64_t>(rng() % 5);
            else if (r < 990)
                clock -= static_cast<int64_t>(rng() % (10 * l.unit_us));
            else if (r < 995)
                clock += static_cast<int64_t>(rng() % kHourUs);
            else {
                restart_from(d.state = GenState{}, d.durable); // crash or promotion
                clock -= static_cast<int64_t>(rng() % kHourUs);
            }
            d.reserve_ahead = static_cast<int64_t>(rng() % 20);
            int64_t id = d.issue(clock);
            ASSERT_GT(id, prev) << "step " << i;
            prev = id;
        }
    }
}

TEST(SnowflakeGenerator, RandCounterStaysUniqueWithinAUnit)
{
    const Layout& l = builtin("nonsequential"); // rand 13 bits, no seq
    EXPECT_EQ(counter_space(l), 8192);
    std::mt19937_64 rng(5);
    std::set<int64_t> starts;
    GenState s;
    s.reserved_unit = 1 << 20;
    int64_t prev = -1, total = 0;
    std::set<int64_t> ids;
    for (int64_t unit = 1000; unit < 1200; ++unit) {
        int64_t n = 0, first = -1, last = -1;
        for (;; ++n) {
            Step st = next(l, s, unit, rng());
            if (st.kind == Step::WaitForClock)
                break;
            ASSERT_EQ(st.kind, Step::Issue);
            if (n == 0)
                first = st.counter;
            else
                ASSERT_EQ(st.counter, last + 1);
            last = st.counter;
            int64_t id = compose(l, st.unit, 5, st.counter, rng());
            ASSERT_GT(id, prev);
            prev = id;
            ids.insert(id);
            ++total;
            EXPECT_EQ(unpack(l, id).rand, st.counter);
        }
        EXPECT_LT(first, 4096); // the lower half...
        EXPECT_EQ(last, 8191);
        EXPECT_GE(n, 4096); // ...so at least half the space is left for each unit
        starts.insert(first);
    }
    EXPECT_GT(starts.size(), 150u); // offsets are random
    EXPECT_EQ(static_cast<int64_t>(ids.size()), total);

    // The extreme offsets.
    GenState a;
    a.reserved_unit = 10;
    EXPECT_EQ(next(l, a, 1, ~uint64_t{0}).counter, 4095);
    GenState b;
    b.reserved_unit = 10;
    EXPECT_EQ(next(l, b, 1, 4096).counter, 0);

    // A one-bit rand counter: offset 0, two ids per unit.
    Layout tiny = parse_layout("tiny", 0, "time:10,rand:1", 1);
    GenState t;
    t.reserved_unit = 100;
    EXPECT_EQ(next(tiny, t, 3, ~uint64_t{0}).counter, 0);
    EXPECT_EQ(next(tiny, t, 3, 0).counter, 1);
    EXPECT_EQ(next(tiny, t, 3, 0).kind, Step::WaitForClock);
}

TEST(SnowflakeGenerator, SeqCountsAndRandIsRandomWhenBothExist)
{
    const Layout& l = builtin("display60");
    EXPECT_EQ(counter_space(l), 512);
    GenState s;
    s.reserved_unit = 100;
    std::mt19937_64 rng(6);
    std::set<int64_t> rands;
    int64_t prev = -1;
    for (int i = 0; i < 512; ++i) {
        Step st = next(l, s, 50, rng());
        ASSERT_EQ(st.kind, Step::Issue);
        EXPECT_EQ(st.counter, i);
        int64_t id = compose(l, st.unit, 77, st.counter, rng()); // node ignored: display60 has none
        Unpacked u = unpack(l, id);
        EXPECT_EQ(u.seq, i);
        EXPECT_EQ(u.node, 0);
        ASSERT_GT(id, prev);
        prev = id;
        rands.insert(u.rand);
    }
    EXPECT_GT(rands.size(), 300u);
    EXPECT_EQ(next(l, s, 50, 0).kind, Step::WaitForClock);
    EXPECT_EQ(compose(l, 1, 0, 0, ~uint64_t{0}), (int64_t{1} << 18) | 511);
}

TEST(SnowflakeGenerator, RunsOutOfTimeBitsWithAnError)
{
    Layout l = parse_layout("short", 0, "time:2,seq:1", kMs); // units 0..3, two ids each
    GenState s;
    s.reserved_unit = 100;
    EXPECT_EQ(next(l, s, 3, 0).counter, 0);
    EXPECT_EQ(next(l, s, 3, 0).counter, 1);
    const GenState before = s;
    Error e = expect_error(ErrorKind::OutOfRange, [&] { next(l, s, 3, 0); }); // not a wait
    EXPECT_STREQ(e.what(), "snowflake layout \"short\" has run out of time bits");
    EXPECT_EQ(s.last_unit, before.last_unit);
    EXPECT_EQ(s.counter, before.counter);
    expect_error(ErrorKind::OutOfRange, [&] { next(l, s, 1, 0); }); // behind: would move to 4
    expect_error(ErrorKind::OutOfRange, [&] { next(l, s, 4, 0); });
    expect_error(ErrorKind::OutOfRange, [&] { next(l, s, std::numeric_limits<int64_t>::max(), 0); });

    GenState fresh;
    fresh.reserved_unit = 100;
    expect_error(ErrorKind::OutOfRange, [&] { next(l, fresh, 4, 0); });

    // A 63-bit time field at its very end, and a corrupt mark beyond it, must not overflow.
    Layout t63 = parse_layout("t63", 0, "time:63", 1);
    GenState z;
    restart_from(z, std::numeric_limits<int64_t>::max() - 1);
    z.reserved_unit = std::numeric_limits<int64_t>::max();
    Step st = next(t63, z, 0, 0);
    EXPECT_EQ(st.unit, std::numeric_limits<int64_t>::max());
    expect_error(ErrorKind::OutOfRange, [&] { next(t63, z, 0, 0); });
    GenState corrupt;
    restart_from(corrupt, std::numeric_limits<int64_t>::max());
    expect_error(ErrorKind::OutOfRange, [&] { next(t63, corrupt, 5, 0); });
    expect_error(ErrorKind::OutOfRange, [&] { next(l, corrupt, 1, 0); });
}

TEST(SnowflakeGenerator, ClockBeforeTheEpoch)
{
    const Layout& l = builtin("snowflake");
    GenState s;
    s.reserved_unit = 100;
    Error e = expect_error(ErrorKind::OutOfRange, [&] { next(l, s, -1, 0); });
    EXPECT_EQ(std::string(e.what()), "current time is before the epoch of snowflake layout \"snowflake\"");
    EXPECT_FALSE(e.hint().empty());
    expect_error(ErrorKind::OutOfRange, [&] { next(l, s, std::numeric_limits<int64_t>::min(), 0); });
    EXPECT_EQ(s.last_unit, -1);

    // Once ids exist, a clock stepped back before the epoch is just a clock behind us.
    s.reserved_unit = 100;
    ASSERT_EQ(next(l, s, 5, 0).kind, Step::Issue);
    Step st = next(l, s, std::numeric_limits<int64_t>::min(), 0);
    EXPECT_EQ(st.kind, Step::Issue);
    EXPECT_EQ(st.unit, 5);
    EXPECT_EQ(st.counter, 1);
    EXPECT_EQ(st.clock_back, std::numeric_limits<int64_t>::max());
}

TEST(SnowflakeGenerator, OneIdPerUnitWithoutSeqOrRand)
{
    Layout l = parse_layout("per_unit", 0, "time:50,node:5", kMs);
    EXPECT_EQ(counter_space(l), 1);
    GenState s;
    s.reserved_unit = 1000;
    EXPECT_EQ(next(l, s, 10, 0).unit, 10);
    EXPECT_EQ(next(l, s, 10, 0).kind, Step::WaitForClock);
    EXPECT_EQ(next(l, s, 9, 0).unit, 11); // clock stepped back: move on at once...
    Step w = next(l, s, 9, 0); // ...but never further ahead of the clock than that
    EXPECT_EQ(w.kind, Step::WaitForClock);
    EXPECT_EQ(w.unit, 10); // one unit of the clock, not until it catches up
    EXPECT_EQ(next(l, s, 10, 0).unit, 12);
    EXPECT_EQ(next(l, s, 12, 0).kind, Step::WaitForClock);
    EXPECT_EQ(compose(l, 12, 31, 0, 0), (12 << 5) | 31);
}

TEST(SnowflakeGenerator, NodeIdChecks)
{
    const Layout& sf = builtin("snowflake");
    Error unset = expect_error(ErrorKind::Prerequisite, [&] { check_node_id(sf, -1); });
    EXPECT_STREQ(unset.what(), "idseq.node_id is not set");
    EXPECT_NE(unset.hint().find("ALTER SYSTEM"), std::string::npos);
    Error wide = expect_error(ErrorKind::Prerequisite, [&] { check_node_id(sf, 1024); });
    EXPECT_STREQ(wide.what(), "idseq.node_id value 1024 is too large for snowflake layout \"snowflake\"");
    EXPECT_EQ(wide.detail(), "The layout \"snowflake\" allows node ids from 0 to 1023.");
    EXPECT_FALSE(wide.hint().empty());
    EXPECT_NO_THROW(check_node_id(sf, 0));
    EXPECT_NO_THROW(check_node_id(sf, 1023));
    EXPECT_NO_THROW(check_node_id(builtin("instagram"), 8191));
    expect_error(ErrorKind::Prerequisite, [&] { check_node_id(builtin("instagram"), 8192); });
    EXPECT_NO_THROW(check_node_id(builtin("sonyflake"), 65535));
    EXPECT_NO_THROW(check_node_id(builtin("display60"), -1)); // no node field: no node id needed
    EXPECT_NO_THROW(check_node_id(builtin("display60"), 5000));

    // compose still range-checks, as pack does.
    expect_error(ErrorKind::OutOfRange, [&] { compose(sf, 0, 1024, 0, 0); });
    expect_error(ErrorKind::OutOfRange, [&] { compose(sf, 0, 0, 4096, 0); });
}

TEST(SnowflakeGenerator, NodeChangeStartsANewUnit)
{
    const Layout& l = builtin("snowflake");
    GenState s;
    s.reserved_unit = 100;
    Step a = next(l, s, 7, 0);
    int64_t id_a = compose(l, a.unit, 9, a.counter, 0);
    finish_unit(s); // the node id changed from 9 to 2
    Step b = next(l, s, 7, 0);
    EXPECT_EQ(b.kind, Step::WaitForClock); // the clock is in the spent unit 7
    EXPECT_EQ(b.unit, 8);
    b = next(l, s, 8, 0);
    EXPECT_GT(compose(l, b.unit, 2, b.counter, 0), id_a);
}


// idseq.snowflake_max_ahead_ms: a spent unit moves on at once while the next unit is within
// now + ahead, waits at that frontier (for the clock unit that brings the next unit within
// it), and ahead = 0 is Twitter's rule.
TEST(SnowflakeGenerator, RunsAheadOfTheClockUpToTheFrontierThenWaits)
{
    Layout l = parse_layout("quad", 0, "time:20,seq:2", 1); // 4 ids per unit
    // n ids in a row, each an Issue step, with the clock in unit clock
    auto issue = [&](GenState& st, int n, int64_t clock, int64_t ahead) {
        for (int i = 0; i < n; ++i)
            ASSERT_EQ(next(l, st, clock, 0, ahead).kind, Step::Issue) << i;
    };
    GenState s;
    s.reserved_unit = 1000;
    std::vector<int64_t> units;
    for (int i = 0; i < 16; ++i) {
        Step st = next(l, s, 10, 0, 3);
        ASSERT_EQ(st.kind, Step::Issue) << i;
        units.push_back(st.unit);
    }
    EXPECT_EQ(units.front(), 10);
    EXPECT_EQ(units.back(), 13); // units 10..13, 4 ids each, the clock still in 10
    Step w = next(l, s, 10, 0, 3);
    ASSERT_EQ(w.kind, Step::WaitForClock);
    EXPECT_EQ(w.unit, 11); // unit 14 is within the frontier once the clock is in 11
    Step go = next(l, s, 11, 0, 3);
    ASSERT_EQ(go.kind, Step::Issue);
    EXPECT_EQ(go.unit, 14);

    // ahead = 0: the same state waits for the clock's next unit, as without the setting
    GenState t;
    t.reserved_unit = 1000;
    issue(t, 4, 10, 0);
    Step w0 = next(l, t, 10, 0, 0);
    EXPECT_EQ(w0.kind, Step::WaitForClock);
    EXPECT_EQ(w0.unit, 11);

    // ids already past the frontier (a clock stepped back) move on without waiting for the
    // clock to catch up, but get no further ahead of it: the gap (50 units, beyond the 3
    // allowed) is kept, plus the one unit a spent unit moves on to
    GenState b;
    b.reserved_unit = 1000;
    issue(b, 4, 100, 3);
    Step past = next(l, b, 50, 0, 3); // unit 100 is spent, the clock 50 units back
    ASSERT_EQ(past.kind, Step::Issue);
    EXPECT_EQ(past.unit, 101);
    issue(b, 3, 50, 3);
    Step hold = next(l, b, 50, 0, 3); // 101 spent: 102 would widen the gap
    ASSERT_EQ(hold.kind, Step::WaitForClock);
    EXPECT_EQ(hold.unit, 51); // one unit of the clock
    Step on = next(l, b, 51, 0, 3);
    ASSERT_EQ(on.kind, Step::Issue);
    EXPECT_EQ(on.unit, 102);
    // the setting lowered (3 -> 0) with ids 3 units ahead: they keep that gap, no more
    GenState d;
    d.reserved_unit = 1000;
    issue(d, 16, 10, 3); // units 10..13
    Step low = next(l, d, 10, 0, 0);
    EXPECT_EQ(low.kind, Step::Issue); // the one unit past the gap found
    EXPECT_EQ(low.unit, 14);
    issue(d, 3, 10, 0);
    EXPECT_EQ(next(l, d, 10, 0, 0).kind, Step::WaitForClock);
    // the clock catches up with no demand: the run-ahead is gone, ahead 0 holds again
    Step caught = next(l, d, 20, 0, 0);
    ASSERT_EQ(caught.kind, Step::Issue);
    EXPECT_EQ(caught.unit, 20);
    EXPECT_EQ(d.anchor_unit, -1);

    // a reservation is still needed past the durable mark
    GenState r;
    r.reserved_unit = 11;
    issue(r, 8, 10, 3);
    Step need = next(l, r, 10, 0, 3);
    EXPECT_EQ(need.kind, Step::NeedReservation);
    EXPECT_EQ(need.unit, 12);

    // whole units, rounded down
    const Layout& tw = builtin("snowflake");
    EXPECT_EQ(ahead_units(tw, 0), 0);
    EXPECT_EQ(ahead_units(tw, 999), 0);
    EXPECT_EQ(ahead_units(tw, 250000), 250);
    EXPECT_EQ(ahead_units(tw, -5), 0);
}

// Against an oracle over random clocks (forward, still, stepped back) and random settings:
// ids strictly increase; an id never goes past the frontier unless the ids before it already
// were past it, and then only by moving on one unit; no WaitForClock while the next unit fits.
TEST(SnowflakeGenerator, RunAheadPropertyAgainstAnOracle)
{
    Layout l = parse_layout("oct", 0, "time:30,seq:3", 1); // 8 ids per unit
    std::mt19937_64 rng(11);
    for (int round = 0; round < 200; ++round) {
        const int64_t ahead = static_cast<int64_t>(rng() % 6);
        GenState s;
        s.reserved_unit = int64_t{1} << 28;
        int64_t clock = 1000, prev = -1, tolerated = ahead;
        for (int i = 0; i < 2000; ++i) {
            const uint64_t r = rng() % 100;
            if (r < 10)
                clock += 1 + static_cast<int64_t>(rng() % 3);
            else if (r < 12) {
                clock -= static_cast<int64_t>(rng() % 20);
                // a step back may leave the ids this far ahead, plus the unit they move on to
                tolerated = std::max(tolerated, s.last_unit - clock + 1);
            }
            const int64_t before = s.last_unit;
            const bool spent = s.counter >= counter_space(l) - 1;
            Step st = next(l, s, clock, 0, ahead);
            if (st.kind == Step::WaitForClock) {
                // only at the frontier, with the unit spent
                EXPECT_TRUE(spent);
                EXPECT_GE(before, clock + ahead); // at the frontier, which a run-ahead may move out
                EXPECT_EQ(st.unit, clock + 1); // one unit of the clock, never more
                clock = st.unit; // the wait ends when the clock gets there
                continue;
            }
            ASSERT_EQ(st.kind, Step::Issue);
            const int64_t id = compose(l, st.unit, 0, st.counter, 0);
            ASSERT_GT(id, prev);
            prev = id;
            if (before <= clock + ahead)
                EXPECT_LE(st.unit, clock + ahead);
            else
                EXPECT_LE(st.unit, before + 1);
            EXPECT_LE(st.unit - clock, tolerated); // the pace never widens the gap
        }
    }
}

// ---- The lock-free position ------------------------------------------------------------------

// Every layout: a position packs into one word and back, and two positions of one node order
// as their ids do, so a word that grows by compare-and-swap issues increasing ids.
TEST(SnowflakePosition, RoundTripsAndOrdersLikeTheIds)
{
    std::mt19937_64 rng(5);
    for (const Layout& l : all_layouts()) {
        EXPECT_EQ(pack_position(l, Position{}), 0u) << l.name;
        EXPECT_EQ(unpack_position(l, 0).last_unit, -1) << l.name;
        const int64_t space = counter_space(l);
        auto random_pos = [&] {
            Position p;
            const int64_t max_unit = l.max_value(Field::Time);
            switch (rng() % 3) {
            case 0: p.last_unit = static_cast<int64_t>(rng() % std::min<uint64_t>(4, static_cast<uint64_t>(max_unit) + 1)); break;
            case 1: p.last_unit = max_unit - static_cast<int64_t>(rng() % std::min<uint64_t>(4, static_cast<uint64_t>(max_unit) + 1)); break;
            default: p.last_unit = static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_unit) + 1));
            }
            p.node = static_cast<int64_t>(rng() % (static_cast<uint64_t>(l.max_value(Field::Node)) + 1));
            p.counter = rng() % 4 == 0 ? space - 1 : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            return p;
        };
        for (int i = 0; i < 3000; ++i) {
            const Position p = random_pos();
            const uint64_t w = pack_position(l, p);
            const Position q = unpack_position(l, w);
            ASSERT_EQ(q.last_unit, p.last_unit) << l.name;
            ASSERT_EQ(q.node, p.node) << l.name;
            ASSERT_EQ(q.counter, p.counter) << l.name;
            ASSERT_NE(w, 0u);
            // a spent unit packs as its last counter
            GenState s;
            s.last_unit = p.last_unit;
            s.counter = kCounterSpent;
            EXPECT_EQ(unpack_position(l, position_of(l, s, p.node)).counter, space - 1);
            if (!generator_order_ok(l))
                continue;
            Position r = random_pos();
            r.node = p.node;
            if (rng() % 2)
                r.last_unit = p.last_unit;
            const uint64_t rnd = rng();
            // rand-only counters are the rand field, and seq+rand layouts put rand below seq
            const int64_t id_p = compose(l, p.last_unit, p.node, p.counter, rnd);
            const int64_t id_r = compose(l, r.last_unit, r.node, r.counter, rnd);
            if (id_p != id_r) {
                ASSERT_EQ(id_p < id_r, w < pack_position(l, r)) << l.name;
            }
        }
    }
}

// fast_next against next() over random states of every layout whose ids increase: it issues
// exactly when next() issues with no anchor (none before, the clock not behind the last issue), the
// same unit and counter, and leaves the word next()'s state packs to.
TEST(SnowflakePosition, FastNextIssuesExactlyWhenNextWould)
{
    std::mt19937_64 rng(17);
    int issued = 0, declined = 0;
    for (const Layout& l : all_layouts()) {
        if (!generator_order_ok(l) || !long_lived(l))
            continue;
        const int64_t space = counter_space(l);
        const int64_t max_node = l.max_value(Field::Node);
        for (int i = 0; i < 20000; ++i) {
            const int64_t now = 1000 + static_cast<int64_t>(rng() % 8);
            const int64_t node = static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_node) + 1));
            Position p;
            if (rng() % 10 != 0) {
                p.last_unit = 995 + static_cast<int64_t>(rng() % 16);
                p.node = rng() % 4 == 0 ? static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_node) + 1)) : node;
                const uint64_t c = rng() % 4;
                p.counter = c == 0 ? space - 1 : c == 1 ? std::max<int64_t>(space - 2, 0)
                                                    : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            }
            const uint64_t word = pack_position(l, p);
            const int64_t reserved = 995 + static_cast<int64_t>(rng() % 20);
            // a mark inside the reserved unit half the time
            const int64_t rcounter = rng() % 2 == 0 ? kCounterSpent : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            const int64_t ahead = static_cast<int64_t>(rng() % 4);
            const uint64_t rnd = rng();
            const int64_t last_now = rng() % 3 == 0 ? std::numeric_limits<int64_t>::min()
                                                    : now - static_cast<int64_t>(rng() % 3);
            FastIssue fi{};
            const bool fast = fast_next(l, word, node, now, reserved, rcounter, rnd, ahead, fi);
            GenState s = state_at(l, word, node, reserved, last_now, -1, 0);
            s.reserved_counter = rcounter;
            const Step st = next(l, s, now, rnd, ahead);
            const bool plain = st.kind == Step::Issue && s.anchor_unit == -1;
            ASSERT_EQ(fast, plain) << l.name << " unit " << p.last_unit << " counter " << p.counter << " now " << now;
            if (!fast) {
                ++declined;
                continue;
            }
            ++issued;
            EXPECT_EQ(st.clock_back, 0);
            EXPECT_EQ(fi.unit, st.unit);
            EXPECT_EQ(fi.counter, st.counter);
            EXPECT_EQ(fi.word, position_of(l, s, node));
            EXPECT_GT(fi.word, word); // the word only grows
        }
    }
    // both answers are common in the sample
    EXPECT_GT(issued, 20000);
    EXPECT_GT(declined, 20000);
}

// fast_successor against fast_next over random states of every layout whose ids increase,
// also before the epoch and at the end of the time field: whenever it answers, fast_next gives
// the very same answer; and it answers the common case (the word's unit, counter not spent).
TEST(SnowflakePosition, FastSuccessorAgreesWithFastNext)
{
    std::mt19937_64 rng(29);
    int answered = 0, left = 0;
    for (const Layout& l : all_layouts()) {
        if (!generator_order_ok(l))
            continue;
        const WordStep ws = word_step(l);
        const int64_t space = counter_space(l);
        const int64_t max_node = l.max_value(Field::Node);
        const int64_t max_unit = l.max_value(Field::Time);
        for (int i = 0; i < 20000; ++i) {
            // near the end of the time field, but with room for the offsets below (time:63)
            const int64_t base = rng() % 5 == 0
                ? std::min<int64_t>(std::max<int64_t>(max_unit - 10, 0), std::numeric_limits<int64_t>::max() - 32)
                : 1000;
            const int64_t now = rng() % 50 == 0 ? -1 - static_cast<int64_t>(rng() % 3)
                                                : base + static_cast<int64_t>(rng() % 8);
            const int64_t node = static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_node) + 1));
            Position p;
            if (rng() % 10 != 0) {
                p.last_unit = std::min<int64_t>(std::max<int64_t>(base - 5 + static_cast<int64_t>(rng() % 16), 0), max_unit);
                p.node = rng() % 4 == 0 ? static_cast<int64_t>(rng() % (static_cast<uint64_t>(max_node) + 1)) : node;
                const uint64_t c = rng() % 4;
                p.counter = c == 0 ? space - 1 : c == 1 ? std::max<int64_t>(space - 2, 0)
                                                    : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            }
            const uint64_t word = pack_position(l, p);
            // half the time the clock at or just behind the word's unit (the common case)
            const int64_t clock = p.last_unit >= 0 && rng() % 2 == 0 ? p.last_unit - static_cast<int64_t>(rng() % 3) : now;
            const int64_t reserved = base - 5 + static_cast<int64_t>(rng() % 20);
            const int64_t rcounter = rng() % 2 == 0 ? kCounterSpent : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            const int64_t ahead = rng() % 8 == 0 ? -1 : static_cast<int64_t>(rng() % 4);
            const uint64_t rnd = rng();
            FastIssue quick{}, full{};
            const bool q = fast_successor(ws, word, node_bits(ws, node), clock, reserved, rcounter, ahead, quick);
            const bool f = fast_next(l, word, node, clock, reserved, rcounter, rnd, ahead, full);
            if (!q) {
                ++left;
                continue;
            }
            ++answered;
            ASSERT_TRUE(f) << l.name << " unit " << p.last_unit << " counter " << p.counter << " now " << clock;
            EXPECT_EQ(quick.word, full.word) << l.name;
            EXPECT_EQ(quick.unit, full.unit) << l.name;
            EXPECT_EQ(quick.counter, full.counter) << l.name;
        }
    }
    EXPECT_GT(answered, 20000);
    EXPECT_GT(left, 20000);
}

// state_at: a word of another node is a spent unit (a node change starts a new unit, as
// finish_unit does for the state in one backend).
TEST(SnowflakePosition, AnotherNodesWordStartsANewUnit)
{
    const Layout& tw = builtin("snowflake");
    const uint64_t w = pack_position(tw, Position{500, 3, 7});
    GenState same = state_at(tw, w, 3, 1000, 500, -1, 0);
    EXPECT_EQ(same.counter, 7);
    GenState other = state_at(tw, w, 4, 1000, 500, -1, 0);
    EXPECT_EQ(other.counter, kCounterSpent);
    Step st = next(tw, other, 500, 0, 2);
    ASSERT_EQ(st.kind, Step::Issue);
    EXPECT_EQ(st.unit, 501);
    FastIssue fi{};
    ASSERT_TRUE(fast_next(tw, w, 4, 500, 1000, kCounterSpent, 0, 2, fi));
    EXPECT_EQ(fi.unit, 501);
    EXPECT_EQ(fi.counter, 0);
    EXPECT_EQ(unpack_position(tw, fi.word).node, 4);
    // without run-ahead the spent unit waits for the clock: not the lock-free step's to decide
    EXPECT_FALSE(fast_next(tw, w, 4, 500, 1000, kCounterSpent, 0, 0, fi));
}

// Backends whose clocks disagree (a reading up to 40 units behind real time, a different one
// at every step, as when each session sets idseq.test_clock_offset_ms, or a clock that steps
// back and forth) while demand is far above the capacity: the ids never get more than one
// unit ahead of the latest clock plus ahead_units. The frontier's pace is the monotonic
// clock's, so each disagreement cannot push the ids a unit further (a run-ahead measured from
// each session's own clock would let two sessions 1 ms apart run ids 1 s ahead in 5 s).
TEST(SnowflakeGenerator, DisagreeingClocksCannotRatchetTheIdsAhead)
{
    Layout l = parse_layout("pair", 0, "time:40,seq:1", kMs); // 2 ids per unit
    std::mt19937_64 rng(23);
    for (const int64_t ahead : {0, 3}) {
        for (const int spread : {1, 2, 40}) {
            GenState s;
            s.reserved_unit = int64_t{1} << 38;
            int64_t real = 100000, prev = -1, worst = INT64_MIN, issued = 0;
            for (int i = 0; i < 200000; ++i) {
                if (i % 5 == 0)
                    ++real; // real time: one unit every 5 calls, so demand is 2.5x the capacity
                const int64_t clock = real - static_cast<int64_t>(rng() % static_cast<uint64_t>(spread + 1));
                const Step st = next(l, s, clock, 0, ahead, real * l.unit_us);
                if (st.kind != Step::Issue)
                    continue; // a wait: real time moves on anyway
                const int64_t id = compose(l, st.unit, 0, st.counter, 0);
                ASSERT_GT(id, prev);
                prev = id;
                ++issued;
                worst = std::max(worst, st.unit - real);
            }
            EXPECT_LE(worst, ahead + 1) << "ahead " << ahead << " spread " << spread;
            EXPECT_GT(issued, 200000 / 5 * 2 * 9 / 10) << "the capacity is used"; // >= 90% of 2 per unit
        }
    }
}

// The anchor kept as one offset (the path without shared memory shares it beside the last
// id): a state rebuilt from it at any later monotonic time sees the same frontier as the
// state it came from, and a state that keeps its anchor gives back the same offset exactly.
TEST(SnowflakeGenerator, AnchorOffsetRoundTrips)
{
    std::mt19937_64 rng(31);
    for (const int64_t unit_us : {int64_t{1}, int64_t{1000}, int64_t{10000}, int64_t{1000000}}) {
        Layout l = parse_layout("a", 0, "time:41,seq:1", unit_us);
        GenState none;
        EXPECT_EQ(anchor_offset(l, none), 0);
        for (int i = 0; i < 20000; ++i) {
            GenState s;
            s.anchor_unit = static_cast<int64_t>(rng() % 1000000);
            s.anchor_mono_us = static_cast<int64_t>(rng() % (int64_t{1} << 40));
            const int64_t d = anchor_offset(l, s);
            ASSERT_NE(d, 0);
            const int64_t later = s.anchor_mono_us + static_cast<int64_t>(rng() % (100 * unit_us));
            GenState r;
            set_anchor_from_offset(l, r, d, later);
            ASSERT_LE(r.anchor_mono_us, later);
            // the same frontier at `later`
            const int64_t f_orig = s.anchor_unit + (later - s.anchor_mono_us) / unit_us;
            const int64_t f_back = r.anchor_unit + (later - r.anchor_mono_us) / unit_us;
            EXPECT_LE(f_orig - f_back, 0 + (d == -1 ? 1 : 0));
            EXPECT_LE(f_back - f_orig, 0);
            EXPECT_EQ(anchor_offset(l, r), d);
        }
        GenState r;
        set_anchor_from_offset(l, r, 0, 12345);
        EXPECT_EQ(r.anchor_unit, -1);
    }
}

// WalSndCtlData's synchronous-standby byte: a bool before the minor releases of May 2025, bits
// since. The decision follows the running server's version on both sides of each boundary,
// whatever headers the module was built with.

// The path without shared memory reads the monotonic clock only when next() can use it: when
// next_reads_mono says no, any reading gives the same step and the same state.
TEST(SnowflakeGenerator, MonotonicClockUnreadBelowTheFrontierChangesNothing)
{
    std::mt19937_64 rng(47);
    int skipped = 0, read = 0;
    for (const Layout& l : all_layouts()) {
        if (!generator_order_ok(l) || !long_lived(l))
            continue;
        const int64_t space = counter_space(l);
        for (int i = 0; i < 20000; ++i) {
            GenState st;
            const int64_t now = 1000 + static_cast<int64_t>(rng() % 8);
            if (rng() % 10 != 0) {
                st.last_unit = 990 + static_cast<int64_t>(rng() % 30);
                st.counter = rng() % 4 == 0 ? kCounterSpent : static_cast<int64_t>(rng() % static_cast<uint64_t>(space));
            }
            st.node_changed = rng() % 5 == 0 && st.last_unit >= 0;
            if (rng() % 3 == 0) {
                st.anchor_unit = 990 + static_cast<int64_t>(rng() % 30);
                st.anchor_mono_us = static_cast<int64_t>(rng() % 100000);
            }
            st.reserved_unit = 990 + static_cast<int64_t>(rng() % 40);
            const int64_t ahead = static_cast<int64_t>(rng() % 4);
            const uint64_t r = rng();
            if (next_reads_mono(st, now, ahead)) {
                ++read;
                continue;
            }
            ++skipped;
            GenState a = st, b = st;
            const Step sa = next(l, a, now, r, ahead, kNoMono);
            const Step sb = next(l, b, now, r, ahead, static_cast<int64_t>(rng() % 1000000000));
            ASSERT_EQ(sa.kind, sb.kind) << l.name;
            EXPECT_EQ(sa.unit, sb.unit);
            EXPECT_EQ(sa.counter, sb.counter);
            EXPECT_EQ(a.last_unit, b.last_unit);
            EXPECT_EQ(a.counter, b.counter);
            EXPECT_EQ(a.anchor_unit, b.anchor_unit);
            EXPECT_EQ(a.anchor_unit, -1);
            EXPECT_EQ(anchor_offset(l, a), 0);
        }
    }
    EXPECT_GT(skipped, 20000);
    EXPECT_GT(read, 20000);
}
