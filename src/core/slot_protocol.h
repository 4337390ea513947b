// The shared-memory generator's slot protocol: the cells a slot shares between processes and
// the steps that read and move them -- the lock-free issue, the locked step's issue, the
// set-up's exchange of the word, the raising of the clock reading and of reservations.
//
// The steps are templates over an atomics policy A, so that the server runs them on
// PostgreSQL's atomics (src/pg: PgAtomics over pg_atomic_uint64/uint32 and its barriers) and
// the unit tests on std::atomic with real threads under ThreadSanitizer
// (core_tests/unit/test_slot_protocol.cpp). A provides, for its cell types U64 and U32:
//
//   static uint64_t read(U64&);  static void write(U64&, uint64_t);
//   static uint32_t read(U32&);  static void write(U32&, uint32_t);
//   static bool cas(U64&, uint64_t& expected, uint64_t desired);
//       as pg_atomic_compare_exchange_u64: a full barrier; on failure expected gets the value
//       found
//   static void read_barrier();  static void write_barrier();  static void full_barrier();
//
// Reads and writes carry no ordering of their own (as pg_atomic_read/write_u64); the steps
// order them with the barriers. The cells are a type C with the members of SlotCells below
// (src/pg's Slot has them, on cache lines of its own). The steps take no lock and call only
// the callables they are given (the clock, the reservation view, the set-up's new word); the
// slot's mutex, the durable mark and the waits are the caller's.
//
// Why the steps never issue an id twice, out of order, or above the durable mark:
//  - every change of the word is a compare-and-swap from the value its step was computed
//    from, so ids leave the word in one order, each above the last (idseq::pack_position);
//  - last_now is read before the clock, by the locked step too, and only ever holds a reading
//    taken before it was stored (raise_last_now never lowers it; only the locked step does,
//    when it sees the clock go back): a reading below it is a real step back of the clock,
//    which the locked step handles, so the lock-free id never hides one;
//  - a unit is issued only when the reservation view, read before the compare-and-swap,
//    covers it, and reserved is written only after its mark is durable (the caller's). The
//    view is the issuer's: the slot's reserved cell, or -- a stream shared by the databases
//    of a server -- the issuer's own database's durable mark as the issuer last confirmed it,
//    so that each id lies under the mark of the database that issued it; the word is one for
//    all, so ids of every view leave it in one order;
//  - a set-up writes setup 0 before it touches the word and a new generation after: an
//    issuer that finds setup changed after its compare-and-swap cannot tell whether its id
//    came before the set-up, so it drops it (a gap) and starts over.
#pragma once

#include "cpp_only.h"

#include "snowflake.h"

// IDSEQ_SLOT_MUTATION_n (n = 1..6) breaks the protocol on purpose, so that
// core_tests/unit/test_slot_protocol.cpp can show its tests catch it: only the Makefile's
// TSAN_EXTRA defines one, for the unit tests' build; the extension's build never does.

#include <cstdint>

namespace idseq::slot {

// The shared cells, for a policy's cell types (the tests use this; src/pg's Slot declares the
// same members itself, to place them on cache lines).
template <class A>
struct SlotCells {
    typename A::U32 setup; // 0 while being set up, else the generation of the last set-up
    typename A::U64 reserved; // the durable mark (idseq::encode_mark); written under the mutex
    typename A::U64 sync_reserved; // the mark confirmed with synchronous standbys (see Slot)
    typename A::U64 last_now; // GenState::last_now as now_word()
    typename A::U64 anchor_unit; // GenState::anchor_unit (-1: none); written under the mutex
    typename A::U64 anchor_mono; // GenState::anchor_mono_us; written under the mutex
    typename A::U64 word; // the last id's (unit, node, counter): idseq::pack_position
};

// GenState::last_now in the cell: the sign bit flipped, so that readings order as unsigned
// words and the lock-free step can raise it with a compare-and-swap.
inline uint64_t now_word(int64_t unit) { return static_cast<uint64_t>(unit) ^ (UINT64_C(1) << 63); }
inline int64_t now_of(uint64_t word) { return static_cast<int64_t>(word ^ (UINT64_C(1) << 63)); }

// The set-up generation after g (never 0, which means "being set up").
inline uint32_t next_generation(uint32_t g) { return g + 1 == 0 ? 1 : g + 1; }

// What one issuer (a backend) remembers of the slot between its ids.
struct Issuer {
    uint32_t setup = 0; // the slot's setup when this issuer last took the locked step
    uint64_t word = 0; // the word as this issuer last left it (a guess: see try_lock_free)
};

// Raises last_now to the reading unit (never lowers it).
template <class A, class C>
inline void raise_last_now(C& c, int64_t unit)
{
    const uint64_t w = now_word(unit);
    uint64_t seen = A::read(c.last_now);
#ifdef IDSEQ_SLOT_MUTATION_3
    (void) seen;
    A::write(c.last_now, w); // mutation: may lower last_now
#else
    while (seen < w && !A::cas(c.last_now, seen, w)) {
    }
#endif
}

// The anchor from a state next() left (under the mutex).
template <class A, class C>
inline void write_anchor(C& c, const GenState& st)
{
    A::write(c.anchor_mono, static_cast<uint64_t>(st.anchor_mono_us));
    A::write(c.anchor_unit, static_cast<uint64_t>(st.anchor_unit));
}

// Raises an encoded mark cell to mark, encoded being encode_mark(layout, mark) (never lowers
// it); under the mutex. Never throws.
template <class A, class U>
inline void raise_mark(const Layout& layout, U& cell, const Mark& mark, int64_t encoded) noexcept
{
    const int64_t current = static_cast<int64_t>(A::read(cell));
    if (!mark_covers(decode_mark(layout, current), mark))
        A::write(cell, static_cast<uint64_t>(encoded));
}

// The common id without a lock (idseq::fast_next: no step back of the clock, no anchor, the
// unit reserved, the ids within ahead units of the clock): one compare-and-swap of the word.
// now_unit() reads the clock (in the layout's units); reserved(unit, counter) gives the
// reservation the ids may go under (GenState::reserved_unit and reserved_counter for node:
// it reads the cell reserved, never throws). Returns false when the locked step must decide;
// true with the issued unit and counter in out.
template <class A, class C, class Clock, class Reserved>
inline bool try_lock_free(C& c, Issuer& me, const Layout& layout, const WordStep& ws, int64_t node, int64_t ahead,
                          uint64_t rnd, Clock&& now_unit_of_clock, Reserved&& reserved_view, FastIssue& out)
{
    for (;;) {
        const uint32_t setup = A::read(c.setup);
        if (setup == 0 || setup != me.setup || static_cast<int64_t>(A::read(c.anchor_unit)) != -1)
            return false;
        A::read_barrier();
        const uint64_t last_now = A::read(c.last_now);
        A::read_barrier();
        const int64_t now_unit = now_unit_of_clock();
        if (now_word(now_unit) < last_now)
            return false;
        int64_t reserved, reserved_counter;
#ifdef IDSEQ_SLOT_MUTATION_4
        (void) reserved_view; // mutation: issue without reading the reservation
        reserved = INT64_MAX;
        reserved_counter = INT64_MAX;
#else
        reserved_view(reserved, reserved_counter);
#endif
        // The first compare-and-swap expects the word this issuer left: right whenever no
        // other issuer went since, and otherwise it fails with the word's line already
        // taken for writing, so the second one, from the word it returned, is a local hit.
        uint64_t word = me.word;
        const uint64_t nbits = node_bits(ws, node);
        bool current = false;
        for (;;) {
            // the next counter of the word's unit in a few instructions (fast_successor), so
            // that after a failed compare-and-swap the next attempt follows at once
            if (!fast_successor(ws, word, nbits, now_unit, reserved, reserved_counter, ahead, out) &&
                !fast_next(layout, word, node, now_unit, reserved, reserved_counter, rnd, ahead, out)) {
                if (current)
                    return false;
                word = A::read(c.word);
                current = true;
                continue;
            }
#ifdef IDSEQ_SLOT_MUTATION_1
            A::write(c.word, out.word); // mutation: a plain store, not a compare-and-swap
            break;
#else
            if (A::cas(c.word, word, out.word))
                break;
#endif
            current = true; // another id came first: step from the word it left
        }
        me.word = out.word;
#ifdef IDSEQ_SLOT_MUTATION_6
        A::write(c.anchor_unit, static_cast<uint64_t>(-1)); // mutation: a cell of the mutex, without it
#endif
#ifndef IDSEQ_SLOT_MUTATION_2 // mutation: setup not checked again after the compare-and-swap
        if (A::read(c.setup) != setup)
            continue; // set up again meanwhile: drop the id
#endif
        if (now_word(now_unit) > last_now)
            raise_last_now<A>(c, now_unit);
        return true;
    }
}

// The locked step, the caller holding the slot's mutex (and having found the slot set up):
// next() on the state the cells hold, so that steps that reserve, wait, anchor or see the
// clock go back are taken one at a time; its id is a compare-and-swap of the word too,
// retried when a lock-free id came first. clock(now_us, mono_us) reads the clock and the
// monotonic clock; reserved_view as for try_lock_free. Returns next()'s step (Issue: the word
// holds its id; WaitForClock: the anchor written); now_us gets the reading it was decided at.
// Throws what next() throws, the cells then unchanged but for an anchor of an earlier round.
template <class A, class C, class Clock, class Reserved>
inline Step locked_step(C& c, Issuer& me, const Layout& layout, int64_t node, int64_t ahead, uint64_t rnd,
                        Clock&& clock, Reserved&& reserved_view, int64_t& now_us)
{
    me.setup = A::read(c.setup);
    for (;;) {
        // last_now and the word before the clock: every reading behind them, and every
        // lock-free id in the word, came before this reading, so a word ahead of it is a real
        // step back of the clock, not a reading that came late.
        int64_t mono = 0;
#ifdef IDSEQ_SLOT_MUTATION_5
        clock(now_us, mono); // mutation: the clock read before last_now and the word
#endif
        const uint64_t last_now = A::read(c.last_now);
        uint64_t word = A::read(c.word);
        A::read_barrier();
#ifndef IDSEQ_SLOT_MUTATION_5
        clock(now_us, mono);
#endif
        const int64_t now_unit = unit_of(layout, now_us);
        int64_t reserved, reserved_counter;
        reserved_view(reserved, reserved_counter);
        GenState st = state_at(layout, word, node, reserved, now_of(last_now),
                               static_cast<int64_t>(A::read(c.anchor_unit)),
                               static_cast<int64_t>(A::read(c.anchor_mono)));
        st.reserved_counter = reserved_counter;
        const Step step = next(layout, st, now_unit, rnd, ahead, mono);
        if (step.kind == Step::NeedReservation)
            return step;
        if (step.kind == Step::WaitForClock) {
            write_anchor<A>(c, st);
            return step;
        }
        const uint64_t next_word = position_of(layout, st, node);
        if (A::cas(c.word, word, next_word)) {
            me.word = next_word;
            write_anchor<A>(c, st);
            if (step.clock_back > 0)
                A::write(c.last_now, now_word(now_unit)); // down with the clock
            else
                raise_last_now<A>(c, now_unit);
            return step;
        }
    }
}

// The set-up, the caller holding the slot's mutex. begin_setup: lock-free issuers see setup 0
// from here on (and drop an id whose compare-and-swap they cannot prove came before it).
template <class A, class C>
inline void begin_setup(C& c)
{
    A::write(c.setup, 0);
    A::full_barrier();
}

// The set-up's new word, word_from(old) computed from the word found (it may throw: the word
// is then left as it is); a compare-and-swap, since a lock-free issuer of the old set-up may
// still move the word (it then drops its id).
template <class A, class C, class WordFrom>
inline void exchange_word(C& c, WordFrom&& word_from)
{
    for (;;) {
        uint64_t old = A::read(c.word);
        const uint64_t word = word_from(old);
        if (A::cas(c.word, old, word))
            return;
    }
}

// The set-up's reservation and clock reading (after exchange_word, or after it threw).
template <class A, class C>
inline void reset_cells(C& c, int64_t reserved, int64_t sync_reserved)
{
    A::write(c.reserved, static_cast<uint64_t>(reserved));
    A::write(c.sync_reserved, static_cast<uint64_t>(sync_reserved));
    A::write(c.last_now, now_word(INT64_MIN));
}

// The set-up done: its generation published after everything it wrote.
template <class A, class C>
inline void publish_setup(C& c, uint32_t generation)
{
    A::write_barrier();
    A::write(c.setup, generation);
}

} // namespace idseq::slot
