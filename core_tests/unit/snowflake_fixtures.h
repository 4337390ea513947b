// Fixtures shared by the snowflake core's unit tests (test_snowflake_*.cpp): layouts to
// test over, a fake clock and durable mark to drive the generator, and the two-path server
// model. Functions are inline so that each test file may use any subset of them.
#pragma once

#include "quoted_text.h"
#include "slot_protocol.h"
#include "snowflake.h"
#include "std_atomics.h"

#include "error.h"

#include "test_util.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <limits>
#include <random>
#include <set>

namespace idseq::sf_test {

using namespace idseq;


constexpr int64_t kMs = 1000;
constexpr int64_t kHourUs = 3600 * 1000 * kMs;

// Runs fn, expects an idseq::Error of the given kind, and returns it.
inline Error expect_error(ErrorKind kind, const std::function<void()>& fn)
{
    Error e = unit::error_of(fn);
    EXPECT_EQ(static_cast<int>(e.kind()), static_cast<int>(kind)) << e.what();
    return e;
}

inline const Layout& builtin(std::string_view name)
{
    const Layout* l = builtin_layout(name);
    if (!l)
        throw std::logic_error("no builtin layout " + std::string(name));
    return *l;
}

// Every builtin layout plus custom ones covering odd shapes: 63 time bits, fields in an
// unusual order, a rand-only tail, a day-long unit whose range overflows int64 microseconds,
// a layout with neither seq nor rand, a microsecond unit with a negative epoch.
inline std::vector<Layout> all_layouts()
{
    std::vector<Layout> v = builtin_layouts();
    v.push_back(parse_layout("t63", 0, "time:63", 1));
    v.push_back(parse_layout("odd_order", -1000000000000000, "seq:5, time:20 ,node:3", 7));
    v.push_back(parse_layout("rand_tail", 1600000000000000, "time:1,rand:62", 1));
    v.push_back(parse_layout("daily", 0, "time:30,node:2,rand:4,seq:3", 86400 * 1000 * kMs));
    v.push_back(parse_layout("per_unit", 1500000000000000, "time:50,node:5", kMs));
    v.push_back(parse_layout("micro", -5, "time:48,seq:3", 1));
    return v;
}

// The largest unit whose start fits int64 microseconds.
inline int64_t max_usable_unit(const Layout& l)
{
    __extension__ typedef __int128 i128;
    i128 by_int64 = (i128{std::numeric_limits<int64_t>::max()} - l.epoch_us) / l.unit_us;
    return static_cast<int64_t>(std::min<i128>(l.max_value(Field::Time), by_int64));
}

// Whether a layout's time field spans more than a day (room for the clock tests).
inline bool long_lived(const Layout& l) { return max_usable_unit(l) > 24 * kHourUs / l.unit_us; }



// Drives next() like the server does: handles NeedReservation with a fake durable mark
// (reserving reserve_ahead units beyond the asked one) and checks the invariants of every step.
struct Driver {
    const Layout& layout;
    GenState state;
    int64_t node = 1;
    int64_t reserve_ahead = 0;
    int64_t durable = -1; // the "WAL": the highest reservation ever made
    std::mt19937_64 rng{7};
    int reservations = 0, waits = 0, warnings = 0;

    explicit Driver(const Layout& l, int64_t ahead = 0) : layout(l), reserve_ahead(ahead)
    {
        node = l.has(Field::Node) ? std::min<int64_t>(1, l.max_value(Field::Node)) : -1;
    }

    // Returns an Issue or WaitForClock step.
    Step step(int64_t now_unit)
    {
        const GenState before = state;
        for (;;) {
            Step s = next(layout, state, now_unit, rng());
            if (s.kind == Step::NeedReservation) {
                EXPECT_GT(s.unit, state.reserved_unit);
                EXPECT_EQ(state.last_unit, before.last_unit);
                durable = std::max(durable, s.unit + reserve_ahead);
                state.reserved_unit = durable;
                ++reservations;
                continue;
            }
            if (s.kind == Step::WaitForClock) {
                ++waits;
                // only a spent unit at or ahead of the clock waits, and never for more than
                // one unit of the clock (ids ahead of it go on at the layout's pace)
                EXPECT_GE(before.last_unit, now_unit);
                EXPECT_EQ(s.unit, now_unit + 1);
                EXPECT_EQ(state.last_unit, before.last_unit);
                EXPECT_EQ(state.counter, before.counter);
                return s;
            }
            EXPECT_LE(s.unit, state.reserved_unit);
            EXPECT_LE(s.unit, durable);
            if (now_unit > before.last_unit) {
                EXPECT_EQ(s.unit, now_unit); // the clock's time whenever it is ahead
            } else {
                EXPECT_TRUE(s.unit == before.last_unit || s.unit == before.last_unit + 1);
            }
            if (s.clock_back > 0)
                ++warnings;
            return s;
        }
    }

    // Issues one id, advancing the fake clock (in microseconds) when asked to wait.
    int64_t issue(int64_t& clock_us)
    {
        for (;;) {
            Step s = step(unit_of(layout, clock_us));
            if (s.kind == Step::Issue) {
                int64_t id = compose(layout, s.unit, node, s.counter, rng());
                Unpacked u = unpack(layout, id);
                EXPECT_EQ(u.ts_us, unit_start_us(layout, s.unit));
                EXPECT_EQ(layout.has(Field::Node) ? u.node : 0, layout.has(Field::Node) ? node : 0);
                return id;
            }
            clock_us = unit_start_us(layout, s.unit); // sleep until the unit begins
        }
    }
};



// Layouts whose unit is longer than the default lease, as the issue's: minute, second, hour,
// day units, and a minute layout whose counter is its rand field.
inline std::vector<Layout> long_unit_layouts()
{
    const int64_t s = 1000 * kMs;
    return {parse_layout("min2", 1704067200 * s, "time:36,node:4,seq:10", 60 * s),
            parse_layout("sec2", 1704067200 * s, "time:40,node:4,seq:10", s),
            parse_layout("hour2", 1704067200 * s, "time:32,node:4,seq:10", 3600 * s),
            parse_layout("day2", 1704067200 * s, "time:24,node:4,seq:12", 86400 * s),
            parse_layout("minrand", 1704067200 * s, "time:40,node:4,rand:12", 60 * s)};
}

inline Mark inside(int64_t unit, int64_t node, int64_t counter)
{
    Mark m;
    m.unit = unit;
    m.node = node;
    m.counter = counter;
    return m;
}

inline Mark whole(int64_t unit)
{
    Mark m;
    m.unit = unit;
    return m;
}



// A simulated server with both of the adapter's paths, each as the adapter
// (src/pg/sf_generator.cpp) runs it, on the same core functions. Durable: H, the
// high-water mark (a WAL-logged sequence: survives crashes, restarts and promotion).
// Volatile: the fast path's slot (shared memory, lost at every restart except through the
// file saved at a clean shutdown): the word (the last id's unit, node and counter), the last
// clock reading, the anchor and the slot's copy of H; and P, the last id of the path without
// shared memory with the anchor every backend shares beside it (an unlogged sequence:
// survives a clean restart, reset to "unknown" by a crash or a promotion, and by the fast
// path when it takes over). Without shared memory, each of two backends keeps its own view of
// H: base, read at its first call in this run (its restart point), and mark, updated by its
// reservations.
//
// The fast path runs the slot protocol's own steps (src/core/slot_protocol.h: the lock-free
// step, else the locked step, and the set-up), one backend at a time. Its set-up (init_slot)
// resumes from the saved word, or right after a known P (rule 7 of the adapter's proof), or
// from H. Several backends interleaving inside one step are the protocol's thread tests'
// (test_slot_protocol.cpp) and t/033's.
struct Server {
    const Layout& layout;
    Mark H; // the durable mark (as the adapter reads it: its sequence and guard)
    bool fast = true;
    bool shared_ready = false;
    // the slot (its reserved cell kept as the Mark it encodes)
    slot::SlotCells<test::StdAtomics> cells;
    slot::Issuer issuer;
    uint32_t generation = 0;
    Mark slot_reserved; // Slot::reserved
    bool saved = false; // the slot's word saved at a clean shutdown
    uint64_t saved_word = 0;
    // the path without shared memory
    int64_t P = -1; // -1: unknown
    int64_t P_anchor = 0; // anchor_offset beside P (0: none)
    int64_t lease_us = 0;
    int64_t ahead = 0; // idseq.snowflake_max_ahead_ms in units
    int64_t now_us = 0; // the clock inside the unit the caller gives
    int64_t mono_us = 0; // CLOCK_MONOTONIC: never steps back
    int lock_free_ids = 0, locked_ids = 0, resumed_from_P = 0, slow_anchored = 0;
    struct Backend {
        Mark base, mark;
        bool started = false;
    } backends[2];
    std::mt19937_64 rng{9};

    explicit Server(const Layout& l) : layout(l) { fresh_shared_memory(); }

    void fresh_shared_memory()
    {
        cells.setup = 0;
        cells.word = 0;
        cells.anchor_unit = static_cast<uint64_t>(-1);
        cells.anchor_mono = 0;
        cells.last_now = slot::now_word(std::numeric_limits<int64_t>::min());
        issuer = slot::Issuer{};
    }

    // under the layout's lock: setval + XLogFlush
    Mark reserve(int64_t unit, int64_t counter, int64_t node)
    {
        H = mark_for_id(layout, H, unit, counter, node, now_us, lease_us); // as reserve() does
        return H;
    }
    bool covered(int64_t unit, int64_t node, int64_t counter) const
    {
        return mark_covers_id(layout, H, unit, layout.has(Field::Node) ? node : 0, counter);
    }

    // init_slot: the word from the saved word, a known P or H; P becomes unknown.
    void set_up_slot()
    {
        if (saved)
            cells.word = saved_word;
        slot::begin_setup<test::StdAtomics>(cells);
        slot::exchange_word<test::StdAtomics>(cells, [&](uint64_t old) { return word_from(old); });
        slot::reset_cells<test::StdAtomics>(cells, 0, -1);
        slot_reserved = H;
        saved = false;
        P = -1;
        P_anchor = 0;
        shared_ready = true;
        generation = slot::next_generation(generation);
        slot::publish_setup<test::StdAtomics>(cells, generation);
    }

    // The set-up's word from the word found: the core's slot_setup_word, which init_slot
    // calls, checked against the rule written out here.
    uint64_t word_from(uint64_t old)
    {
        const uint64_t word = slot_setup_word(layout, old, H, saved, P);
        EXPECT_EQ(word, rule_word(old));
        return word;
    }
    uint64_t rule_word(uint64_t old)
    {
        const Position p = unpack_position(layout, old);
        GenState st;
        st.last_unit = p.last_unit;
        st.counter = p.counter;
        int64_t node = p.node;
        const bool p_covered = P >= 0 && mark_covers_id(layout, H, unit_of_id(layout, P), node_of(layout, P),
                                                        counter_of(layout, P));
        if (saved && p.last_unit >= 0 && mark_covers_id(layout, H, p.last_unit, p.node, p.counter)) {
            st = resume_saved(st, H.unit);
        } else if (!saved && p_covered &&
                   pack_position(layout, Position{unit_of_id(layout, P), node_of(layout, P), counter_of(layout, P)}) >=
                       old) {
            node = node_of(layout, P);
            st = resume_from_last_id(layout, P, H.unit, node);
            ++resumed_from_P;
        } else {
            node = H.whole() ? p.node : H.node;
            restart_from_mark(layout, st, H, node);
        }
        return pack_position(layout, Position{st.last_unit, node, st.counter});
    }

    // One snowflake_nextval; the clock in units. Returns -1 when it would wait for the clock.
    int64_t nextval(int64_t now, int64_t node, int which)
    {
        now_us = unit_start_us(layout, now) + static_cast<int64_t>(rng() % static_cast<uint64_t>(layout.unit_us));
        mono_us += static_cast<int64_t>(rng() % static_cast<uint64_t>(2 * layout.unit_us));
        const uint64_t rnd = rng();
        if (fast) {
            if (!shared_ready)
                set_up_slot();
            auto reserved_view = [&](int64_t& unit, int64_t& counter) { // usable_reserved
                GenState view;
                apply_mark(layout, view, slot_reserved, node);
                unit = view.reserved_unit;
                counter = view.reserved_counter;
            };
            for (;;) {
                FastIssue fi;
                if (slot::try_lock_free<test::StdAtomics>(cells, issuer, layout, word_step(layout), node, ahead, rnd,
                                                          [&] { return now; }, reserved_view, fi)) {
                    EXPECT_TRUE(covered(fi.unit, node, fi.counter)); // durable before it is issued
                    ++lock_free_ids;
                    return compose(layout, fi.unit, node, fi.counter, rnd);
                }
                int64_t read_us = 0;
                Step s = slot::locked_step<test::StdAtomics>(
                    cells, issuer, layout, node, ahead, rnd,
                    [&](int64_t& us, int64_t& mono) { us = now_us, mono = mono_us; }, reserved_view, read_us);
                if (s.kind == Step::NeedReservation) {
                    slot_reserved = mark_max(slot_reserved, reserve(s.unit, s.counter, node));
                    continue;
                }
                if (s.kind == Step::WaitForClock)
                    return -1;
                EXPECT_TRUE(covered(s.unit, node, s.counter)); // durable before it is issued
                ++locked_ids;
                return compose(layout, s.unit, node, s.counter, rnd);
            }
        }
        Backend& b = backends[which];
        if (!b.started) {
            b.base = b.mark = H;
            b.started = true;
        }
        for (int attempt = 0;; ++attempt) {
            // a rand counter starts at random in each unit: a block may not reach the next draw
            const int most = layout.has(Field::Seq) ? 5 : 40;
            EXPECT_LT(attempt, most) << "the path without shared memory does not converge";
            if (attempt >= most)
                return -2;
            GenState st = rebuild_state_marks(layout, P >= 0, P, b.base, b.mark, node);
            if (P_anchor != 0) {
                set_anchor_from_offset(layout, st, P_anchor, mono_us);
                ++slow_anchored;
            }
            // one draw per call, as the adapter: a rand counter's start drawn again on every
            // attempt would leave a reservation past the start finally issued
            Step s = next(layout, st, now, rnd, ahead, mono_us); // the state is thrown away: P keeps it
            if (s.kind == Step::NeedReservation) {
                b.mark = reserve(s.unit, s.counter, node);
                continue;
            }
            P_anchor = anchor_offset(layout, st);
            if (s.kind == Step::WaitForClock)
                return -1;
            EXPECT_TRUE(covered(s.unit, node, s.counter));
            P = compose(layout, s.unit, node, s.counter, rnd);
            return P;
        }
    }

    void crash() // also a promotion: the backends are gone
    {
        fresh_shared_memory();
        saved = false;
        shared_ready = false;
        P = -1;
        P_anchor = 0;
        backends[0] = backends[1] = Backend{};
    }
    void clean_restart(bool preload)
    {
        // The postmaster saves the fast path's word (kept through a start that did not use it);
        // only a start with preload reads the file, and every start removes it.
        if (fast && shared_ready) {
            saved = true;
            saved_word = cells.word;
        }
        saved = saved && fast && preload;
        fresh_shared_memory();
        shared_ready = false;
        fast = preload;
        backends[0] = backends[1] = Backend{};
    }
};



// A simulated clock for ClockWaiter, in nanoseconds: every reading costs read_ns, every sleep
// takes what it asks for plus overshoot(); step_back_us moves the clock back during the next
// sleep. Counts what the waiter did.
struct FakeTime {
    int64_t now_ns = 1'000'000'000;
    int64_t read_ns = 20;
    std::function<int64_t()> overshoot_us = [] { return int64_t{50}; };
    int64_t step_back_us = 0;
    int sleeps = 0, reads = 0;
    int64_t slept_ns = 0;

    int64_t now() { ++reads; now_ns += read_ns; return now_ns / 1000; }
    void sleep(int64_t us)
    {
        EXPECT_GT(us, 0);
        ++sleeps;
        const int64_t ns = (us + overshoot_us()) * 1000;
        now_ns += ns - step_back_us * 1000;
        slept_ns += ns;
        step_back_us = 0;
    }
};

struct WaitResult {
    int64_t end_us; // the reading wait_until returned
    int sleeps;
    int64_t spun_us; // time not spent sleeping
};

inline WaitResult wait_once(ClockWaiter& w, FakeTime& t, int64_t target_us, const std::function<bool()>& stop = [] { return false; })
{
    const int sleeps0 = t.sleeps;
    const int64_t start_ns = t.now_ns, slept0 = t.slept_ns;
    const int64_t end = w.wait_until(target_us, [&] { return t.now(); }, [&](int64_t us) { t.sleep(us); }, stop);
    return {end, t.sleeps - sleeps0, (t.now_ns - start_ns - (t.slept_ns - slept0)) / 1000};
}



// Whether the generator's ids increase in a layout, found by running it: a fake clock that
// moves a unit every few ids (so counters restart and units run out), random rand bits.
inline bool ids_increase_when_run(const Layout& l)
{
    GenState s;
    s.reserved_unit = std::numeric_limits<int64_t>::max();
    std::mt19937_64 rng(11);
    int64_t now = 1000, prev = -1;
    for (int i = 0; i < 3000; ++i) {
        if (rng() % 3 == 0)
            ++now;
        uint64_t r = rng();
        Step st = next(l, s, now, r);
        if (st.kind == Step::WaitForClock) {
            now = st.unit;
            continue;
        }
        int64_t id = compose(l, st.unit, 5, st.counter, r);
        if (id <= prev)
            return false;
        prev = id;
    }
    return true;
}


} // namespace idseq::sf_test
