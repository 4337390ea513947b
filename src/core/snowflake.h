// Snowflake ids: layouts, pack/unpack, and the id generator's state machine.
//
// A layout splits a non-negative int64 into fields, most significant first: time (units since
// an epoch), node, seq, rand. The fields occupy the low total_bits() bits; any bits above
// them (display60 has 4) and the sign bit are always 0.
//
// Timestamps here are int64 microseconds since the Unix epoch (1970-01-01 00:00:00 UTC). The
// PostgreSQL adapter converts from its own 2000-01-01 based timestamps and rejects -infinity
// and +infinity before calling in; every int64 value is accepted here.
#pragma once
#include "cpp_only.h"

#include "error.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace idseq {

enum class Field : int { Time, Node, Seq, Rand };
constexpr int kFieldCount = 4;
constexpr int kMaxLayoutBits = 63; // a bigint beside its sign bit

// "time", "node", "seq", "rand".
std::string_view field_name(Field f);

struct FieldBits {
    int width = 0; // 0: the layout has no such field
    int shift = 0; // position of the field's least significant bit
};

struct Layout {
    std::string name;
    int64_t epoch_us = 0; // microseconds since the Unix epoch
    int64_t unit_us = 1000; // length of one time unit in microseconds, >= 1
    std::array<FieldBits, kFieldCount> fields{}; // indexed by Field
    bool builtin = false;

    const FieldBits& operator[](Field f) const { return fields[static_cast<size_t>(f)]; }
    bool has(Field f) const { return (*this)[f].width > 0; }
    // Largest value of a field: 2^width - 1, or 0 when the layout lacks it.
    int64_t max_value(Field f) const { return ones((*this)[f].width); }
    int total_bits() const;
    int64_t max_id() const { return ones(total_bits()); }
    static int64_t ones(int bits) { return static_cast<int64_t>((uint64_t{1} << bits) - 1); } // bits <= 63
};

// Builds a layout from a field list such as "time:41,node:10,seq:12" (most significant
// first; whitespace around names, widths and commas is ignored). time is required; each of
// time, node, seq, rand at most once, each width >= 1, at most 63 bits in all. Throws
// Error(InvalidParameter) on a bad field list, a time unit below 1 microsecond or an empty
// name.
Layout parse_layout(std::string name, int64_t epoch_us, std::string_view fields_spec, int64_t unit_us,
                    bool builtin = false);

// The canonical field list, e.g. "time:41,node:10,seq:12"; parse_layout reads it back.
std::string format_fields(const Layout& layout);

// Layout names: a lowercase letter or underscore, then lowercase letters, digits or
// underscores; at most kMaxLayoutNameLength characters. Throws Error(InvalidParameter).
constexpr int kMaxLayoutNameLength = 63;
void validate_layout_name(std::string_view name);

// The node, seq and rand fields of a layout reachable from SQL are at most this wide, so
// that every field value fits the integer arguments and results of snowflake_pack and
// snowflake_unpack. Throws Error(InvalidParameter) naming the first field that is wider.
constexpr int kMaxSqlFieldBits = 31;
void validate_sql_field_widths(const Layout& layout);

// The generator fills time with the clock's unit, node with a constant, seq with a counter
// that restarts every unit, and rand with random bits (or, without seq, with a counter
// started at a random offset every unit). Its ids increase only when time lies above seq and
// rand, and seq above rand; node, constant per node, may sit anywhere. Layouts that break
// the rule can still pack and unpack ids, but no generator can issue increasing ids from
// them: throws Error(kind) naming the misplaced field, with a hint giving the order that
// works (the same widths in the order time, node, seq, rand).
void validate_generator_order(const Layout& layout, ErrorKind kind);
bool generator_order_ok(const Layout& layout);

// The built-in layouts, in the order the snowflake_layouts view lists them.
const std::vector<Layout>& builtin_layouts();
const Layout* builtin_layout(std::string_view name); // nullptr when there is none

// Formats microseconds since the Unix epoch as PostgreSQL prints a timestamptz in UTC:
// "2010-11-04 01:42:54.657+00" (trailing fractional zeros dropped, " BC" for years <= 0).
std::string format_timestamp_us(int64_t ts_us);

// ---- Time units -------------------------------------------------------------------------

// floor((ts_us - epoch_us) / unit_us). Negative before the epoch; saturates at the int64
// limits (far outside any layout's range, so callers can range-check the result).
int64_t unit_of(const Layout& layout, int64_t ts_us);
// First microsecond of a unit, and of the unit after it (the exclusive end); saturating.
int64_t unit_start_us(const Layout& layout, int64_t unit);
int64_t unit_end_us(const Layout& layout, int64_t unit);
// The last microsecond the layout's time field can represent (saturating at INT64_MAX).
int64_t last_ts_us(const Layout& layout);

// ---- Pack / unpack ----------------------------------------------------------------------

// "The layout "x" represents timestamps from <epoch> to <last representable time>."
std::string time_range_detail(const Layout& layout);
// The error pack raises for a timestamp outside the layout's range, for a timestamp the
// caller spells itself (PostgreSQL's "infinity", or one past the int64 microsecond range).
[[noreturn]] void fail_timestamp_out_of_range(const Layout& layout, std::string_view ts_text);

// The id for a timestamp and field values. Throws Error(OutOfRange) when ts_us is before
// the epoch or after the last representable time (the detail names the range as
// timestamps), when a field value does not fit its width (the detail names its range), or
// when a field the layout lacks is not 0.
int64_t pack(const Layout& layout, int64_t ts_us, int64_t node, int64_t seq, int64_t rand);

struct Unpacked {
    int64_t ts_us; // the start of the id's time unit: epoch_us + units * unit_us
    int64_t node, seq, rand; // 0 for a field the layout lacks
};
// The exact inverse of pack (up to the flooring of ts to its unit). Throws Error(OutOfRange)
// for a negative id, an id with bits set above the layout's fields, or (custom layouts with
// huge ranges only) a timestamp past the int64 microsecond range.
Unpacked unpack(const Layout& layout, int64_t id);

// The smallest id of ts_us's time unit (every other field 0), for range scans. Same range
// errors as pack.
int64_t min_id(const Layout& layout, int64_t ts_us);

// ---- Time predicates --------------------------------------------------------------------
//
// On a time-first layout (time is the most significant field) the time of an id, unpack's
// ts_us, never decreases as the id grows: the ids whose time compares with a timestamp in a
// given way form one range of ids. These give that range's ends, exactly, for the planner's
// derived conditions (src/pg/sf_time_quals.cpp); they never throw.

// Whether the time field is the most significant field of the layout.
bool time_first(const Layout& layout);

// Where the ids whose time is >= ts_us (exclusive: > ts_us) begin: Bound::All when every
// id of the layout qualifies, Bound::None when none does, else Bound::At with the smallest
// such id in id.
enum class Bound { All, None, At };
Bound first_id_from(const Layout& layout, int64_t ts_us, bool exclusive, int64_t& id);
// Where the ids whose time is <= ts_us (exclusive: < ts_us) end: the largest such id.
Bound last_id_to(const Layout& layout, int64_t ts_us, bool exclusive, int64_t& id);
// The largest id unpack accepts: max_id(), or less on a layout whose time field reaches
// past the int64 microseconds. Every id from 0 to it has a time; no other id has.
int64_t last_timed_id(const Layout& layout);

// ---- Generator --------------------------------------------------------------------------
//
// One GenState per layout per server (in shared memory, or per backend behind a lock on the
// durable state). next() decides; the caller reads the clock, keeps the durable high-water
// mark and sleeps. Ids from one state are strictly increasing as long as the node id stays
// the same; when it changes, call finish_unit() so the next id starts a new time unit.
//
// The counter is the seq field's value, or -- for a layout with a rand field and no seq
// field -- the rand field's value, started at a random offset in the lower half of the rand
// space each unit. A layout with neither issues one id per unit.

constexpr int64_t kCounterSpent = INT64_MAX; // GenState::counter: this unit is used up

struct GenState {
    int64_t last_unit = -1; // unit of the last id issued (-1: none)
    int64_t counter = 0; // counter of the last id issued, or kCounterSpent
    int64_t reserved_unit = -1; // durable high-water mark: ids with unit <= it may be issued ...
    // ... but in reserved_unit itself only counters up to reserved_counter (kCounterSpent: the
    // whole unit). A mark inside a unit (see Mark) lets a restart resume inside it.
    int64_t reserved_counter = INT64_MAX;
    int64_t last_now = INT64_MIN; // clock reading (unit) at the last issue (INT64_MIN: none)
    // The anchored frontier: ids found further ahead of the clock than ahead_units allows
    // were put there by an event, not by the generator's own pace (the clock stepped back, a
    // restart above the clock, a smaller setting). They may then go on at the pace of real
    // time, measured by a clock that never steps (CLOCK_MONOTONIC): the frontier is
    // anchor_unit (one unit past the ids at the event) plus the monotonic units elapsed since
    // anchor_mono_us, never beyond one unit past the last id. -1: no anchor (the frontier is the clock's unit + ahead_units).
    // Because it advances with monotonic time, a clock that steps back and forth, or
    // backends whose readings disagree, cannot push the ids ahead step by step. See next().
    int64_t anchor_unit = -1;
    int64_t anchor_mono_us = 0;
    // The last id is another node's (idseq.node_id changed since; set by state_at and
    // resume_from_last_id, cleared by an issue): next() starts the unit after the last id's at
    // once, up to one unit ahead of the clock, rather than wait for the clock to reach it.
    bool node_changed = false;
};

struct Step {
    enum Kind { Issue, NeedReservation, WaitForClock };
    Kind kind;
    // Issue: the new id's unit. NeedReservation: the unit the durable high-water mark must
    // cover before the id may be issued -- reserve up to some unit >= it (durably, e.g.
    // WAL-logged and flushed), set state.reserved_unit, and call next() again.
    // WaitForClock: the unit the clock must reach; sleep until unit_start_us(unit), call again.
    int64_t unit;
    int64_t counter; // Issue: the value for compose(); NeedReservation: the counter to cover
    // Units the clock went back since the reading of the last issue (0 when it did not).
    // Reported until an id is issued, so log a warning when an Issue step has it > 0.
    int64_t clock_back;
};

// Number of counter values per unit: 2^seq, else 2^rand, else 1.
int64_t counter_space(const Layout& layout);

// One step of the state machine, with now_unit = unit_of(layout, clock). On Issue, state
// records the issued (unit, counter); on the other kinds it is unchanged.
//  - now_unit > last_unit: the id goes into now_unit with a fresh counter;
//  - otherwise (same unit, or the clock is behind: stepped back, or behind a high-water
//    mark after restart_from): the counter goes up by one in last_unit; when the unit's
//    counter space is spent, it moves on to last_unit + 1 -- unless last_unit is the
//    frontier: then it is WaitForClock(the clock unit at which last_unit + 1 is within the
//    frontier again). The frontier is now_unit + ahead_units, or the anchored frontier (see
//    GenState::anchor_unit) when that is later. With ahead_units = 0 (Twitter's rule) a spent
//    unit waits for the clock's next unit; with ahead_units = A a burst may run up to A units
//    ahead of the clock before it waits. Ids found beyond the frontier (a clock stepped
//    back, a restart above the clock, a smaller ahead_units) anchor it one unit past theirs,
//    so they go on at the pace of mono_us (one unit of the layout per unit of monotonic time), never
//    at more than the layout's capacity and never waiting more than one unit: the gap never
//    widens, shrinks as demand falls below the capacity (the anchor follows the ids down to
//    one unit past the last id), and is gone once the ids are within A of the clock.
//    mono_us: a monotonic clock in microseconds (CLOCK_MONOTONIC); kNoMono: use now_unit's
//    start instead (tests that step one clock).
// Then the unit must be covered by reserved_unit, else NeedReservation.
// Throws Error(OutOfRange), leaving state unchanged, when the unit would not fit the time
// field, or when a fresh state (nothing issued) sees a clock before the epoch.
// random64 seeds a rand-counter's start offset; it is unused otherwise.
// The path without shared memory keeps a state's anchor as one number that every backend
// shares (beside the last id): D = anchor_unit * unit_us - anchor_mono_us, the anchored
// frontier being floor((mono + D) / unit_us); 0 means no anchor. anchor_offset gives D for
// a state; set_anchor_from_offset gives a state the anchor D stands for at mono_us (an
// anchor_mono_us at most mono_us, so next() sees the same frontier), so a state that keeps
// its anchor gives back the same D exactly.
int64_t anchor_offset(const Layout& layout, const GenState& state);
void set_anchor_from_offset(const Layout& layout, GenState& state, int64_t offset, int64_t mono_us);
constexpr int64_t kNoMono = INT64_MIN;
Step next(const Layout& layout, GenState& state, int64_t now_unit, uint64_t random64, int64_t ahead_units = 0,
          int64_t mono_us = kNoMono);
// Whether next() can read mono_us: only for a state with an anchor, or whose last id lies
// beyond the clock's frontier (now_unit + ahead_units), or at it after a node change, where
// next() may set an anchor.
// When false, any mono_us gives the same step and state, so a caller may skip reading the
// monotonic clock (a clock read per id was a sixth of the path without shared memory).
bool next_reads_mono(const GenState& state, int64_t now_unit, int64_t ahead_units);

// Whole units within ahead_us microseconds (rounded down, so ids never run further ahead of
// the clock than asked; 0 for ahead_us <= 0): next()'s ahead_units for
// idseq.snowflake_max_ahead_ms.
int64_t ahead_units(const Layout& layout, int64_t ahead_us);

// The id for an issued step: unit in time, node in node (ignored when the layout has no
// node field), counter in seq (or in rand when there is no seq), and random64's low bits in
// rand when the layout has both seq and rand. Node must fit: check it with check_node_id.
int64_t compose(const Layout& layout, int64_t unit, int64_t node, int64_t counter, uint64_t random64);

// Throws Error(Prerequisite) with a hint when the layout has a node field and node_id (the
// GUC idseq.node_id, -1 = unset) is unset or too wide for it.
void check_node_id(const Layout& layout, int64_t node_id);

// After a restart, crash or promotion: ids up to durable_unit may have been issued, so the
// next one goes into a unit above it (or into the clock's unit if that is later), and that
// unit needs a new reservation.
void restart_from(GenState& state, int64_t durable_unit);

// Marks the current unit as spent, so the next id starts a new unit.
inline void finish_unit(GenState& state) { state.counter = kCounterSpent; }

// ---- The lock-free position -------------------------------------------------------------
//
// The shared-memory generator keeps its last id's (unit, node, counter) in one 64-bit word,
// so that one compare-and-swap issues an id: ((unit + 1) << (node + counter bits)) |
// (node << counter bits) | counter, where the counter's bits are seq's, else rand's, else
// none. 0 means nothing issued. Words compare as the ids they stand for compare in a unit of
// one node, and every unit holds one node's ids (an id for another node than the word's
// starts a new unit), so a word that only ever grows by compare-and-swap never issues an id
// twice. A spent unit (kCounterSpent) is stored as its last counter, which next() treats the
// same way. Fits: time + node + counter bits <= kMaxLayoutBits, so unit + 1 fits beside them.
struct Position {
    int64_t last_unit = -1; // -1: nothing issued
    int64_t node = 0; // the node of last_unit's ids (0 for a layout without a node field)
    int64_t counter = 0;
};
uint64_t pack_position(const Layout& layout, const Position& pos);
Position unpack_position(const Layout& layout, uint64_t word);
// The position of a state whose ids carry node (kCounterSpent packs as the last counter).
uint64_t position_of(const Layout& layout, const GenState& state, int64_t node);
// The GenState next() needs for a backend whose node id is node: the word's last unit and
// counter -- spent when the word's node is another (a node change starts a new unit) --
// with the other fields given.
GenState state_at(const Layout& layout, uint64_t word, int64_t node, int64_t reserved_unit, int64_t last_now,
                  int64_t anchor_unit, int64_t anchor_mono_us);

// next() in its common case, without a lock: the state at word (for node) with no anchor and
// a clock reading no earlier than the last issue's (the caller checks both). Returns true
// and the issued id's unit, counter and new word when next() would issue the id with no
// anchor after it (the ids within ahead_units of the clock, the unit reserved, inside the time
// field); false when next() must decide (a reservation, a wait, an anchor, an error). Never
// throws. The unit tests check it against next() over random states.
struct FastIssue {
    uint64_t word;
    int64_t unit;
    int64_t counter;
};
// reserved_counter: GenState::reserved_counter (the counters of reserved_unit that are covered).
bool fast_next(const Layout& layout, uint64_t word, int64_t node, int64_t now_unit, int64_t reserved_unit,
               int64_t reserved_counter, uint64_t random64, int64_t ahead_units, FastIssue& out);

// fast_next's commonest answer in a few instructions, for the compare-and-swap loop: the next
// counter of the word's own unit (the word plus one). Under contention every failed
// compare-and-swap hands back a new word, and the shorter the step from it to the next
// attempt, the likelier that attempt finds the word's cache line still here. The layout's
// masks are computed once (word_step). Returns true only when fast_next would return the
// same answer (the unit tests check it over random states); false leaves it to fast_next.
struct WordStep {
    int unit_shift = 0; // node + counter bits: the word's unit + 1 lies above them
    int counter_bits = 0;
    uint64_t node_mask = 0; // the node field in the word
    uint64_t counter_mask = 0; // the counter field in the word (its largest value)
    int64_t max_unit = 0; // the time field's largest value
};
WordStep word_step(const Layout& layout);
// The node as the word holds it (0 without a node field); node is within the field.
inline uint64_t node_bits(const WordStep& ws, int64_t node)
{
    return (static_cast<uint64_t>(node) << ws.counter_bits) & ws.node_mask;
}
inline bool fast_successor(const WordStep& ws, uint64_t word, uint64_t node_bits, int64_t now_unit,
                           int64_t reserved_unit, int64_t reserved_counter, int64_t ahead_units, FastIssue& out)
{
    if (word == 0 || now_unit < 0 || (word & ws.node_mask) != node_bits)
        return false;
    const uint64_t counter = word & ws.counter_mask;
    if (counter == ws.counter_mask)
        return false; // the unit is spent (or the layout has no counter)
    const int64_t unit = static_cast<int64_t>((word >> ws.unit_shift) - 1);
    // the clock not past the word's unit, and the unit within ahead_units of it (0 <= now_unit
    // <= unit: the difference cannot overflow), reserved, inside the time field
    if (unit < now_unit || unit - now_unit > std::max<int64_t>(ahead_units, 0) ||
        unit > reserved_unit || unit > ws.max_unit ||
        (unit == reserved_unit && static_cast<int64_t>(counter) >= reserved_counter))
        return false;
    out.word = word + 1;
    out.unit = unit;
    out.counter = static_cast<int64_t>(counter) + 1;
    return true;
}

// ---- Waiting for the clock --------------------------------------------------------------
//
// A WaitForClock step means: the unit's counter is spent, come back when the clock reaches
// the next unit. A sleep always overshoots what it asks for (Linux timer slack is 50 us,
// plus the scheduler's wake-up latency), and on a layout of short units every microsecond
// lost after the boundary is capacity the layout never gets back; spinning on the clock (a
// vDSO call of some 20 ns) is exact but burns the CPU. ClockWaiter sleeps until a fixed
// window before the target, then spins on the clock for the rest. Measured at capacity on a
// 100-microsecond layout (docs/dev/design.md): sleeping alone reached 47-69% of the capacity,
// sleep-then-spin 87-95%, the same as a waiter that learned its sleeps' overshoot and spun
// accordingly, which used twice the CPU. It never returns before the target unless asked to
// stop, and it sleeps at most once per call, so a clock that jumps back while it waits sends
// the caller back to next() (which moves on at once when the clock is behind).
class ClockWaiter {
public:
    static constexpr int64_t kSpinWindowUs = 75; // timer slack 50 us + wake-up + margin
    static constexpr int64_t kMaxSleepUs = 10000; // one sleep at most, then back to the caller

    // At now_us, before target_us: how long to sleep, or 0 to spin (or, past the target, to stop).
    static int64_t sleep_for(int64_t now_us, int64_t target_us);

    // Waits until now() >= target_us; returns the last reading. now() -> int64_t microseconds;
    // sleep(us) sleeps; stop() -> bool is polled between clock readings (an interrupt is
    // pending: return so the caller can service it). Returns early, below the target, when
    // stop() says so, or after its one sleep when the clock is still further than the spin
    // window from the target (a clock that went back, or a wait longer than kMaxSleepUs).
    template <class Now, class Sleep, class Stop>
    static int64_t wait_until(int64_t target_us, Now&& now, Sleep&& sleep, Stop&& stop)
    {
        for (bool slept = false;;) {
            const int64_t t = now();
            if (t >= target_us || stop())
                return t;
            if (static_cast<uint64_t>(target_us) - static_cast<uint64_t>(t) <= kSpinWindowUs) { // exact: t < target
                cpu_relax();
                continue;
            }
            if (slept)
                return t;
            sleep(sleep_for(t, target_us));
            slept = true;
        }
    }

private:
    static inline void cpu_relax()
    {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ __volatile__("yield");
#endif
    }
};

// ---- Durable state helpers (the PostgreSQL adapter's two paths) ---------------------------
//
// The durable high-water mark H (a unit) is kept ahead of the ids: every id ever issued has
// unit <= H. A reservation for a step's unit moves H to reservation_target(...), making it
// durable before any id under it is issued. lease_units > 0 reserves ahead, so that one
// durable write covers many ids.

// Units covering at least lease_us microseconds (rounded up; 0 for lease_us <= 0).
int64_t lease_units(const Layout& layout, int64_t lease_us);
// The new mark for a NeedReservation step: max(unit, now_unit + lease), never past the
// layout's last unit, never below unit. (Saturating; unit must already fit the layout.)
// The lease counts from the clock, not from the unit: so H <= max(U + 1, T + lease) at all
// times (U: the greatest unit issued, T: the clock at the reservation), and the ids after a
// crash, which start at H + 1, are at most lease + 1 unit ahead of the clock at the last
// reservation -- however many crashes came in a row. (A lease counted from a unit already
// ahead of the clock would add a lease per crash.) While ids run more than the lease ahead
// of the clock (a clock stepped back further than the lease), each unit costs a reservation.
int64_t reservation_target(const Layout& layout, int64_t unit, int64_t now_unit, int64_t lease);

// The state after a clean restart, from the state the generator had at the clean shutdown
// (saved: last_unit, counter; nothing issued since) and the durable mark H read now: it
// continues right after the saved last id, under H. Falls back to restart_from(H) when saved
// is not below H (it cannot be: every id is issued under H) or holds nothing.
GenState resume_saved(const GenState& saved, int64_t durable_unit);

// ---- Marks inside a unit -------------------------------------------------------------------
//
// A mark that covers whole units must be passed by one unit at every restart, so on a layout
// whose unit is longer than the time a restart takes (second, minute, hour or day units)
// crashes in a row would each push the ids one unit further ahead of the clock. A Mark can
// instead end inside a unit: it covers every id of the units before it, and in its own unit
// the ids of one node up to a counter. A restart on that node resumes inside the unit, just
// above the counter; any other node starts the next unit (its ids in the unit could fall
// below ids issued there before, when the node field lies above the counter). So each crash
// costs counters of one unit, not a unit. The functions on marks below, up to
// reservation_mark, never throw (the lock-free path calls them).
struct Mark {
    int64_t unit = -1; // -1: nothing reserved
    int64_t node = 0; // partial marks only (0 for a layout without a node field)
    int64_t counter = kCounterSpent; // kCounterSpent: the whole unit, for every node
    bool whole() const { return counter == kCounterSpent; }
    bool operator==(const Mark& o) const { return unit == o.unit && node == o.node && counter == o.counter; }
    bool operator!=(const Mark& o) const { return !(*this == o); }
};

// The mark as the sequences hold it (a bigint >= -1). A whole unit is the unit itself, as
// every release before 1.3 wrote it, so an old mark reads as what it meant. A mark inside a
// unit is 2^time_bits + (unit, node, counter) packed most significant first, above every unit
// of the layout; when time, node and counter bits take all 63, the counter's lowest bit is
// dropped and read back as 1 (the mark then covers one counter more). A layout without a
// counter, and a counter at the unit's last, always gives a whole unit.
int64_t encode_mark(const Layout& layout, const Mark& mark) noexcept;
// The inverse: a value up to the layout's last unit is a whole unit (-1 or below: none);
// a value above it that is no mark inside a unit (a setval beyond the layout) is the whole
// unit of that number, as before 1.3, beyond the time field.
Mark decode_mark(const Layout& layout, int64_t value) noexcept;
// The least mark that covers both (marks inside one unit for two nodes: the whole unit).
Mark mark_max(const Mark& a, const Mark& b) noexcept;
// Whether a covers every id b covers.
bool mark_covers(const Mark& a, const Mark& b) noexcept;
// A mark that both cover (the lesser when one covers the other).
Mark mark_min(const Mark& a, const Mark& b) noexcept;
// GenState::reserved_unit and reserved_counter for a generator whose ids carry node: a mark
// inside a unit for another node covers none of its ids in that unit.
void apply_mark(const Layout& layout, GenState& state, const Mark& mark, int64_t node) noexcept;
// The server's fence: a time (Unix microseconds) that every id issued on the server lies
// below, in the terms of its own layout, kept by the adapter in a WAL-logged register that
// every database of the server reads (src/pg/sf_fence.cpp). fence_of_mark is what a
// reservation raises it to: the end of a whole mark's unit, or for a mark inside a unit the
// time at which the lease point reaches its counter (reservation_mark's arithmetic); 0 for no
// mark. fence_mark is its inverse for one layout and node: the least mark that covers every
// mark whose fence_of_mark is at most the fence (none before the epoch; the layout's last unit
// when the fence lies past its end).
int64_t fence_of_mark(const Layout& layout, const Mark& mark) noexcept;
Mark fence_mark(const Layout& layout, int64_t fence_us, int64_t node) noexcept;
// Whether the mark covers the id of (unit, node, counter).
bool mark_covers_id(const Layout& layout, const Mark& mark, int64_t unit, int64_t node, int64_t counter) noexcept;

// The new mark for a NeedReservation step (unit, counter) of a generator on node, at clock
// now_us, with a lease of lease_us, the mark being current now. Places in node's ids count in
// order, unit * counter_space + counter; a lease's worth is W = ceil(counter_space * lease_us /
// unit_us) places (at least 1), what the layout issues in a lease at its whole capacity. The
// lease point is the place the ids would reach at lease_us past the clock if they used that
// capacity: a unit, and inside it the counter in proportion to the time elapsed in it. When
// the step is at or before the lease point, the mark moves W - 1 places past the step (W
// places reserved, the step's included), but not beyond the lease point; beyond it (ids ahead
// of the clock by more than the lease: a clock stepped back, a restart above the clock, a
// burst above the capacity), it moves a block past the step inside the step's unit: the rest
// of the unit when the unit is at most the lease (or the lease is 0), else W places. Never
// lower than current, never past the layout's last unit, always covering the step.
// So a restart, which resumes right after the mark, skips at most W places past the place the
// next id would have taken without the crash (the rest of a unit with lease 0), whatever the
// unit: every place before the step had been taken. A mark at the lease point itself would lie
// up to a whole unit above the ids on a unit longer than the lease (the ids of a unit start at
// its first counter, whatever the clock's share of it), and a crash would skip all of that.
// Since the mark never passes the lease point while the step is before it, a restart also
// resumes at most lease_us past the clock of the last reservation (plus one unit when the mark
// ended its unit), and crashes in a row do not add up beyond it: each costs at most W places
// until the ids reach the lease point. Only beyond the lease point does each crash cost a
// block past it.
Mark reservation_mark(const Layout& layout, int64_t unit, int64_t counter, int64_t node, int64_t now_us,
                      int64_t lease_us, const Mark& current);
// What a reservation for the id (unit, counter) of node's ids leaves H at: current when it
// covers the id already (mark_covers_id), else reservation_mark's.
Mark mark_for_id(const Layout& layout, const Mark& current, int64_t unit, int64_t counter, int64_t node,
                 int64_t now_us, int64_t lease_us);

// restart_from for a mark: the next id goes right after the mark's counter inside its unit
// when the mark ends inside a unit for node (and state has issued nothing in it or beyond),
// else into a unit above the mark. The reservation in state is the mark's for node.
void restart_from_mark(const Layout& layout, GenState& state, const Mark& mark, int64_t node);

// rebuild_state with marks: restart is the restart point, reserved the mark as last read or
// written (their union is what is reserved).
GenState rebuild_state_marks(const Layout& layout, bool last_known, int64_t last_id, const Mark& restart,
                             const Mark& reserved, int64_t node_id);

// The generator's counter inside an id: its seq field, else its rand field, else 0.
int64_t counter_of(const Layout& layout, int64_t id);
// The node field of an id (0 when the layout has none).
int64_t node_of(const Layout& layout, int64_t id);
// The time field of an id (its unit).
int64_t unit_of_id(const Layout& layout, int64_t id);

// The state of a generator that keeps only its last issued id (the path without shared
// memory keeps it in an unlogged sequence): the next id follows last_id, or starts a new
// unit when the node id changed since (node_id: the current idseq.node_id). Clock step-back
// detection is the caller's (last_now stays unknown). Throws Error(OutOfRange) for an id
// outside the layout.
GenState resume_from_last_id(const Layout& layout, int64_t last_id, int64_t durable_unit, int64_t node_id);

// The state of the path without shared memory, rebuilt for every id from what it shares:
// the last id issued (when known), restart_unit -- the durable mark as read after the last id
// became unknown, the restart point -- and reserved_unit, the durable mark as last read or
// written. restart_unit must not follow the reservations: a restart point that moved with
// them would ask for a new reservation on every attempt and never issue an id.
GenState rebuild_state(const Layout& layout, bool last_known, int64_t last_id, int64_t restart_unit,
                       int64_t reserved_unit, int64_t node_id);

// ---- The word a shared-memory slot restarts from -------------------------------------------------
//
// The adapter's set-ups (src/pg/sf_generator.cpp: init_slot for one database's slot,
// join_stream for a stream the databases of a server share) gather what they read -- the
// durable mark, the fence, the last id, the saved word -- and these decide the word.

// The word whose next id lies right after mark among word_node's ids: a mark inside a unit for
// another node covers none of its ids in that unit (a higher node's ids of that unit lie above
// the mark's, a lower node's below them).
uint64_t restart_word(const Layout& layout, bool has_node, const Mark& mark, int64_t word_node);

// A slot of one database's layout set up again from the word it holds (old_word): right after
// the word when it was saved at a clean shutdown for these relations (resume) and the mark
// covers it; else right after the slow path's last id (last_id, -1 unknown) when the mark
// covers it and it is not below the word; else from the mark (inside its unit for the mark's
// node when it ends inside one).
uint64_t slot_setup_word(const Layout& layout, uint64_t old_word, const Mark& mark, bool resume, int64_t last_id);

// What a database joining a stream knows (join_stream).
struct StreamJoin {
    Mark mark; // the database's durable mark H
    int64_t fence_us = 0; // the server's fence, read before this join raises it
    bool has_node = false;
    int64_t word_node = 0; // the node the stream's ids carry (0 without a node field)
    bool mine = false; // this layout of this database alone issued the pair (the claim says so)
    int64_t last_id = -1; // the slow path's last id (-1 unknown)
    bool above_fence = false; // a set-up that must start above the fence
    uint64_t issuer_word = 0; // this backend's own last word of the layout (0: none)
};
// The words a join may not go below.
struct StreamWords {
    bool foreign = false; // H lies above the fence: made on another server (a restore)
    uint64_t own = 0; // right after H, or after the last id while mine and it is covered
    uint64_t fenced = 0; // above the fence (above_fence only)
    uint64_t after_mine = 0; // right after this backend's own last id
    Mark fence_now; // every id of the pair lies under it
    // The least word of a join to a stream already set up.
    uint64_t floor() const { return std::max(foreign ? own : 0, after_mine); }
};
StreamWords stream_words(const Layout& layout, const StreamJoin& join);
// The word of a stream set up from the word it holds: right after it when it was saved at a
// clean shutdown (saved) and lies under the fence (and above an H from elsewhere), else above
// own, fenced and after_mine.
uint64_t stream_setup_word(const Layout& layout, uint64_t old_word, bool saved, const StreamWords& words);

// ---- The server's synchronous-standby flag ---------------------------------------------------
//
// The generator waits for the synchronous standbys as a commit does, and tells whether the
// server requires them by the byte PostgreSQL keeps after WalSndCtlData::lsn[]
// (replication/walsender_private.h). Its meaning changed in the minor releases of 8 May 2025
// (13.21, 14.18, 15.13, 16.9, 17.5; 18 and later have it from the start): before them a bool,
// sync_standbys_defined; since, bits, sync_standbys_status, with 1 (SYNC_STANDBY_INIT) set
// once the checkpointer has read synchronous_standby_names and 2 (SYNC_STANDBY_DEFINED)
// when it is not empty. The byte's place and size are the same in both. A build from one
// minor's headers runs on any other minor of its major, so the meaning is decided by the
// running server's version (server_version_num), never by the headers.

// Whether a server of this version (server_version_num, e.g. 150013) writes the bits.
bool sync_standbys_status_bits(int server_version_num);
// What the byte says on a server of this version: 1 synchronous standbys are required, 0 they
// are not, -1 not known yet (the checkpointer has not read the setting: the caller uses its
// own copy of it). Old servers always know (their bool starts false, as their own test reads it).
int sync_standbys_required(int server_version_num, uint8_t flag);

} // namespace idseq
