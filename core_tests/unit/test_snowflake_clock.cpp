// Unit tests of the snowflake core: waiting for the clock (ClockWaiter).
#include "snowflake_fixtures.h"

using namespace idseq;
using namespace idseq::sf_test;

// ---- Waiting for the clock -------------------------------------------------------------------



TEST(SnowflakeClockWaiter, NeverReturnsBeforeTheTarget)
{
    for (int64_t over : {0, 1, 20, 50, 249, 250, 300, 1000, 12000}) {
        for (int64_t left : {-5, 0, 1, 14, 15, 64, 65, 66, 100, 767, 999, 10064, 10065, 10066, 30000}) {
            SCOPED_TRACE(testing::Message() << "overshoot " << over << " us, " << left << " us to go");
            ClockWaiter w;
            FakeTime t;
            t.overshoot_us = [&] { return over; };
            const int64_t start = t.now_ns / 1000, target = start + left;
            // The caller calls again until the target is reached (at most one sleep per call).
            int64_t end = 0;
            int calls = 0;
            do {
                WaitResult r = wait_once(w, t, target);
                EXPECT_LE(r.sleeps, 1);
                end = r.end_us;
                ++calls;
            } while (end < target && calls < 10);
            EXPECT_GE(end, target);
            EXPECT_LE(calls, 1 + left / ClockWaiter::kMaxSleepUs);
            // Late only by what a sleep overshoots beyond the spin window (and a clock read).
            EXPECT_LE(end - std::max(target, start), std::max<int64_t>(over - ClockWaiter::kSpinWindowUs, 0) + 1);
        }
    }
}

TEST(SnowflakeClockWaiter, PastTheTargetReturnsAtOnce)
{
    ClockWaiter w;
    FakeTime t;
    WaitResult r = wait_once(w, t, t.now_ns / 1000);
    EXPECT_EQ(r.sleeps, 0);
    EXPECT_EQ(t.reads, 1);
    EXPECT_EQ(w.sleep_for(500, 400), 0);
    EXPECT_EQ(w.sleep_for(500, 500), 0);
}

TEST(SnowflakeClockWaiter, SleepsWhileFarAndSpinsTheLastStretch)
{
    ClockWaiter w;
    const int64_t window = ClockWaiter::kSpinWindowUs;
    EXPECT_EQ(w.sleep_for(0, window), 0); // close: spin
    EXPECT_EQ(w.sleep_for(0, window + 1), 1);
    EXPECT_EQ(w.sleep_for(0, 767), 767 - window);
    EXPECT_EQ(w.sleep_for(0, 1'000'000), ClockWaiter::kMaxSleepUs);
    EXPECT_EQ(w.sleep_for(INT64_MIN, INT64_MAX), ClockWaiter::kMaxSleepUs); // no overflow
}

// With sleeps that wake 50 us late (Linux's timer slack), every wait ends within a
// microsecond of the target and spins the rest of the window; sleeping the whole remaining
// time would end 50 us late each time.
TEST(SnowflakeClockWaiter, EndsOnTimeWhenSleepsWakeWithinTheWindow)
{
    ClockWaiter w;
    FakeTime t;
    for (int i = 0; i < 50; ++i) {
        const int64_t target = (t.now_ns / 1000 / 1000 + 1) * 1000; // the next millisecond
        const bool far = target - t.now_ns / 1000 > 100;
        WaitResult r = wait_once(w, t, target);
        ASSERT_GE(r.end_us, target);
        EXPECT_LE(r.end_us - target, 1) << "wait " << i;
        if (far) {
            EXPECT_EQ(r.sleeps, 1);
            EXPECT_LE(r.spun_us, ClockWaiter::kSpinWindowUs - 50 + 2) << "wait " << i;
        }
        t.now_ns += 233'000; // 4096 ids at 57 ns
    }
}

// Sleeps that wake later than the window: no spinning, late by the rest.
TEST(SnowflakeClockWaiter, ASleepLaterThanTheWindowEndsLateByTheRest)
{
    ClockWaiter w;
    FakeTime t;
    t.overshoot_us = [] { return int64_t{180}; };
    for (int i = 0; i < 5; ++i) {
        const int64_t target = t.now_ns / 1000 + 767;
        WaitResult r = wait_once(w, t, target);
        EXPECT_EQ(r.sleeps, 1);
        EXPECT_LE(r.spun_us, 1);
        EXPECT_LE(r.end_us - target, 180 - ClockWaiter::kSpinWindowUs + 1);
    }
}

// A clock stepped back during the sleep: the wait returns after that one sleep (below the
// target), so the caller asks next() again, which moves on at once when the clock is behind.
TEST(SnowflakeClockWaiter, ClockSteppedBackReturnsAfterOneSleep)
{
    ClockWaiter w;
    FakeTime t;
    t.step_back_us = 2'000'000;
    const int64_t target = t.now_ns / 1000 + 800;
    WaitResult r = wait_once(w, t, target);
    EXPECT_EQ(r.sleeps, 1);
    EXPECT_LT(r.end_us, target - 1'000'000);
}

TEST(SnowflakeClockWaiter, StopsForAnInterrupt)
{
    ClockWaiter w;
    FakeTime t;
    bool pending = true;
    WaitResult r = wait_once(w, t, t.now_ns / 1000 + 800, [&] { return pending; });
    EXPECT_EQ(r.sleeps, 0);
    EXPECT_EQ(t.reads, 1);
    // While spinning: stops at the next reading.
    int polls = 0;
    const int64_t target = t.now_ns / 1000 + 30;
    r = wait_once(w, t, target, [&] { return ++polls == 5; });
    EXPECT_EQ(r.sleeps, 0);
    EXPECT_LT(r.end_us, target);
    EXPECT_EQ(polls, 5);
}

// The generator at its cap, one session drawing flat out: 57 ns per id plus a clock reading
// of 116 ns (as measured on a busy 2-core VM), so 4096 ids take 708 us, and sleeps that wake
// 350 us late. With the waiter it keeps the layout's 4096 ids per millisecond (it wakes 275
// us late: 708 + 275 us still fit a millisecond); sleeping the whole remaining time woke 350
// us late, so every other unit ran out of time before its counter did: about 3,930 ids per
// millisecond.
// Ids never belong to a unit the clock has not reached.
TEST(SnowflakeClockWaiter, TheGeneratorKeepsItsCapacityAtTheCap)
{
    const Layout& l = builtin("snowflake");
    ClockWaiter w;
    FakeTime t;
    t.now_ns = (l.epoch_us + 5'000'000'000LL) * 1000;
    t.read_ns = 116;
    t.overshoot_us = [] { return int64_t{350}; };
    GenState s;
    s.reserved_unit = INT64_MAX / 2;
    const int64_t start_us = t.now_ns / 1000;
    int64_t ids = 0, prev = -1;
    while (t.now_ns / 1000 - start_us < 200'000) { // 200 ms
        Step st = next(l, s, unit_of(l, t.now()), 0);
        if (st.kind == Step::WaitForClock) {
            w.wait_until(unit_start_us(l, st.unit), [&] { return t.now(); }, [&](int64_t us) { t.sleep(us); },
                         [] { return false; });
            continue;
        }
        ASSERT_EQ(st.kind, Step::Issue);
        const int64_t id = compose(l, st.unit, 1, st.counter, 0);
        ASSERT_GT(id, prev);
        ASSERT_LE(unit_start_us(l, st.unit), t.now_ns / 1000); // never an id of a future unit
        prev = id;
        ++ids;
        t.now_ns += 57;
    }
    const double per_ms = double(ids) / 200.0;
    EXPECT_GE(per_ms, 0.995 * 4096) << per_ms;
    EXPECT_LE(per_ms, 4096.0 * 201 / 200);
}
