#include "cpp_only.h"

#include "snowflake.h"

#include "error.h"
#include "quoted_text.h"

#include <algorithm>
#include <cstdio>
#include <limits>

namespace idseq {

namespace {

__extension__ typedef __int128 i128; // __extension__: no -Wpedantic warning

constexpr int64_t kInt64Min = std::numeric_limits<int64_t>::min();
constexpr int64_t kInt64Max = std::numeric_limits<int64_t>::max();
constexpr std::array<Field, kFieldCount> kAllFields = {Field::Time, Field::Node, Field::Seq, Field::Rand};

int64_t saturate(i128 v)
{
    return v < kInt64Min ? kInt64Min : v > kInt64Max ? kInt64Max : static_cast<int64_t>(v);
}

i128 floor_div(i128 a, i128 b) // b > 0
{
    i128 q = a / b;
    return (a % b < 0) ? q - 1 : q;
}

std::string quoted(std::string_view s) { return "\"" + shown(s) + "\""; }

// The layout's fields that are present, most significant first.
std::vector<Field> fields_in_order(const Layout& layout)
{
    std::vector<Field> out;
    for (Field f : kAllFields)
        if (layout.has(f))
            out.push_back(f);
    std::sort(out.begin(), out.end(), [&](Field a, Field b) { return layout[a].shift > layout[b].shift; });
    return out;
}

// ---- Layout spec parsing ----

std::string_view trim(std::string_view s)
{
    auto space = [](char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'; };
    while (!s.empty() && space(s.front()))
        s.remove_prefix(1);
    while (!s.empty() && space(s.back()))
        s.remove_suffix(1);
    return s;
}

[[noreturn]] void bad_fields(std::string_view spec, std::string detail)
{
    fail(ErrorKind::InvalidParameter, "invalid snowflake layout fields " + quoted(spec), std::move(detail),
         "Write the fields most significant first as name:width separated by commas, such as "
         "\"time:41,node:10,seq:12\". The names are time, node, seq and rand; time is required.");
}

bool field_from_name(std::string_view name, Field& out)
{
    for (Field f : kAllFields)
        if (field_name(f) == name) {
            out = f;
            return true;
        }
    return false;
}

// A width: decimal digits only, 1..63 (anything larger fails the total check anyway).
int parse_width(std::string_view s)
{
    if (s.empty() || s.size() > 3 || !std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
        return -1;
    int w = 0;
    for (char c : s)
        w = w * 10 + (c - '0');
    return w;
}

// ---- Range errors ----

[[noreturn]] void field_out_of_range(const Layout& layout, Field f, int64_t value)
{
    std::string name(field_name(f));
    std::string detail = layout.has(f)
        ? "The layout " + quoted(layout.name) + " allows " + name + " values from 0 to " +
            std::to_string(layout.max_value(f)) + "."
        : "The layout " + quoted(layout.name) + " has no " + name + " field, so its value must be 0.";
    fail(ErrorKind::OutOfRange, "snowflake field " + quoted(name) + " value " + std::to_string(value) +
             " is out of range",
         std::move(detail));
}

// The id of in-range field values; any value out of range throws.
int64_t place(const Layout& layout, const std::array<int64_t, kFieldCount>& values)
{
    int64_t id = 0;
    for (Field f : kAllFields) {
        int64_t v = values[static_cast<size_t>(f)];
        if (v < 0 || v > layout.max_value(f))
            field_out_of_range(layout, f, v);
        id |= v << layout[f].shift;
    }
    return id;
}

int64_t counter_start(const Layout& layout, uint64_t random64)
{
    if (layout.has(Field::Seq) || !layout.has(Field::Rand))
        return 0;
    return static_cast<int64_t>(random64 % static_cast<uint64_t>(counter_space(layout) / 2));
}

void civil_from_days(int64_t z, int64_t& y, int& m, int& d) // Howard Hinnant's algorithm
{
    z += 719468;
    const int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    const int64_t doe = z - era * 146097;
    const int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    const int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const int64_t mp = (5 * doy + 2) / 153;
    d = static_cast<int>(doy - (153 * mp + 2) / 5 + 1);
    m = static_cast<int>(mp < 10 ? mp + 3 : mp - 9);
    y = yoe + era * 400 + (m <= 2);
}

} // namespace

std::string_view field_name(Field f)
{
    static constexpr std::string_view names[kFieldCount] = {"time", "node", "seq", "rand"};
    return names[static_cast<size_t>(f)];
}

std::string time_range_detail(const Layout& layout)
{
    return "The layout " + quoted(layout.name) + " represents timestamps from " +
        format_timestamp_us(layout.epoch_us) + " to " +
        format_timestamp_us(last_ts_us(layout)) + ".";
}

void fail_timestamp_out_of_range(const Layout& layout, std::string_view ts_text)
{
    fail(ErrorKind::OutOfRange,
         "timestamp " + quoted(ts_text) + " is out of range for snowflake layout " + quoted(layout.name),
         time_range_detail(layout));
}

void validate_layout_name(std::string_view name)
{
    bool ok = !name.empty() && name.size() <= static_cast<size_t>(kMaxLayoutNameLength) &&
        ((name[0] >= 'a' && name[0] <= 'z') || name[0] == '_');
    for (char c : name)
        ok = ok && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_');
    if (!ok)
        fail(ErrorKind::InvalidParameter, "invalid snowflake layout name " + quoted(name),
             "A layout name is a lowercase letter or underscore followed by up to " +
                 std::to_string(kMaxLayoutNameLength - 1) + " lowercase letters, digits or underscores.",
             "Choose a name such as \"orders\".");
}

void validate_sql_field_widths(const Layout& layout)
{
    for (Field f : {Field::Node, Field::Seq, Field::Rand})
        if (layout[f].width > kMaxSqlFieldBits)
            fail(ErrorKind::InvalidParameter,
                 "snowflake field " + quoted(field_name(f)) + " of " + std::to_string(layout[f].width) +
                     " bits is too wide",
                 "The node, seq and rand fields take at most " + std::to_string(kMaxSqlFieldBits) +
                     " bits, so that their values fit an integer.",
                 "Give the extra bits to the time field, or split them into seq and rand.");
}

bool generator_order_ok(const Layout& layout)
{
    auto above = [&](Field hi, Field lo) { return !layout.has(hi) || !layout.has(lo) || layout[hi].shift > layout[lo].shift; };
    return above(Field::Time, Field::Seq) && above(Field::Time, Field::Rand) && above(Field::Seq, Field::Rand);
}

void validate_generator_order(const Layout& layout, ErrorKind kind)
{
    if (generator_order_ok(layout))
        return;
    // The first field (most significant first) that lies above one it must follow.
    const Field order[] = {Field::Time, Field::Seq, Field::Rand};
    std::string detail;
    for (Field lo : order)
        for (Field hi : order)
            if (detail.empty() && hi < lo && layout.has(hi) && layout.has(lo) && layout[lo].shift > layout[hi].shift)
                detail = "The field \"" + std::string(field_name(lo)) + "\" comes before \"" +
                    std::string(field_name(hi)) + "\". Ids increase only when time comes before seq and rand, " +
                    "and seq before rand; node may go anywhere.";
    Layout fixed = layout;
    int shift = layout.total_bits();
    for (Field f : kAllFields) // time, node, seq, rand: an order that works, with the same widths
        if (layout.has(f)) {
            shift -= layout[f].width;
            fixed.fields[static_cast<size_t>(f)].shift = shift;
        }
    fail(kind, "snowflake layout " + quoted(layout.name) + " cannot issue increasing ids", detail,
         "Use the fields in the order \"" + format_fields(fixed) + "\".");
}

int Layout::total_bits() const
{
    int n = 0;
    for (const FieldBits& b : fields)
        n += b.width;
    return n;
}

Layout parse_layout(std::string name, int64_t epoch_us, std::string_view fields_spec, int64_t unit_us, bool builtin)
{
    if (name.empty())
        fail(ErrorKind::InvalidParameter, "snowflake layout name must not be empty");
    if (unit_us < 1)
        fail(ErrorKind::InvalidParameter, "invalid snowflake time unit of " + std::to_string(unit_us) + " microseconds",
             "The time unit must be at least 1 microsecond.");

    std::vector<std::pair<Field, int>> order;
    int total = 0;
    size_t pos = 0, index = 0;
    if (trim(fields_spec).empty())
        bad_fields(fields_spec, "The field list is empty.");
    while (pos <= fields_spec.size()) {
        size_t comma = std::min(fields_spec.find(',', pos), fields_spec.size());
        std::string_view token = trim(fields_spec.substr(pos, comma - pos));
        pos = comma + 1;
        ++index;
        if (token.empty())
            bad_fields(fields_spec, "Field " + std::to_string(index) + " is empty.");
        size_t colon = token.find(':');
        if (colon == std::string_view::npos)
            bad_fields(fields_spec, "The field " + quoted(token) + " has no width.");
        std::string_view fname = trim(token.substr(0, colon));
        std::string_view fwidth = trim(token.substr(colon + 1));
        Field f;
        if (!field_from_name(fname, f))
            bad_fields(fields_spec, "The field name " + quoted(fname) + " is not one of time, node, seq, rand.");
        for (const auto& [g, w] : order)
            if (g == f)
                bad_fields(fields_spec, "The field " + quoted(fname) + " appears more than once.");
        int width = parse_width(fwidth);
        if (width < 1)
            bad_fields(fields_spec,
                       "The width " + quoted(fwidth) + " of field " + quoted(fname) + " is not a positive integer.");
        total += width;
        order.emplace_back(f, width);
    }
    if (std::none_of(order.begin(), order.end(), [](const auto& p) { return p.first == Field::Time; }))
        bad_fields(fields_spec, "The field \"time\" is required.");
    if (total > kMaxLayoutBits)
        bad_fields(fields_spec, "The fields take " + std::to_string(total) + " bits, but at most " +
                                    std::to_string(kMaxLayoutBits) + " fit in a bigint beside its sign bit.");

    Layout layout;
    layout.name = std::move(name);
    layout.epoch_us = epoch_us;
    layout.unit_us = unit_us;
    layout.builtin = builtin;
    int shift = total;
    for (const auto& [f, width] : order) {
        shift -= width;
        layout.fields[static_cast<size_t>(f)] = FieldBits{width, shift};
    }
    return layout;
}

std::string format_fields(const Layout& layout)
{
    std::string out;
    for (Field f : fields_in_order(layout)) {
        if (!out.empty())
            out += ',';
        out += std::string(field_name(f)) + ":" + std::to_string(layout[f].width);
    }
    return out;
}

const std::vector<Layout>& builtin_layouts()
{
    static const std::vector<Layout> layouts = [] {
        constexpr int64_t ms = 1000;
        return std::vector<Layout>{
            parse_layout("snowflake", 1288834974657 * ms, "time:41,node:10,seq:12", ms, true),
            parse_layout("instagram", 1314220021721 * ms, "time:40,node:13,seq:10", ms, true),
            parse_layout("sonyflake", 1409529600000 * ms, "time:39,seq:8,node:16", 10 * ms, true),
            parse_layout("display60", 1519862400000 * ms, "time:42,seq:9,rand:9", ms, true),
            parse_layout("nonsequential", 1346472000000 * ms, "time:40,node:10,rand:13", ms, true),
            // TSID (f4b6a3/tsid-creator, vladmihalcea/hypersistence-tsid): 2020-01-01 UTC. Its
            // 42nd time bit is the sign bit, so ids are TSID's own until it goes negative in 2089.
            parse_layout("tsid", 1577836800000 * ms, "time:41,node:10,seq:12", ms, true),
        };
    }();
    return layouts;
}

const Layout* builtin_layout(std::string_view name)
{
    for (const Layout& layout : builtin_layouts())
        if (layout.name == name)
            return &layout;
    return nullptr;
}

std::string format_timestamp_us(int64_t ts_us)
{
    constexpr int64_t day_us = 86400LL * 1000000;
    i128 days = floor_div(ts_us, day_us);
    int64_t in_day = static_cast<int64_t>(ts_us - days * day_us);
    int64_t year;
    int month, day;
    civil_from_days(static_cast<int64_t>(days), year, month, day);
    bool bc = year <= 0;
    char buf[96];
    int64_t secs = in_day / 1000000, frac = in_day % 1000000;
    int n = std::snprintf(buf, sizeof buf, "%04lld-%02d-%02d %02lld:%02lld:%02lld", static_cast<long long>(bc ? 1 - year : year),
                          month, day, static_cast<long long>(secs / 3600), static_cast<long long>(secs / 60 % 60),
                          static_cast<long long>(secs % 60));
    std::string out(buf, static_cast<size_t>(n));
    if (frac != 0) {
        std::snprintf(buf, sizeof buf, ".%06lld", static_cast<long long>(frac));
        std::string f(buf);
        out += f.substr(0, f.find_last_not_of('0') + 1);
    }
    out += "+00";
    if (bc)
        out += " BC";
    return out;
}

int64_t unit_of(const Layout& layout, int64_t ts_us)
{
    int64_t diff;
    if (!__builtin_sub_overflow(ts_us, layout.epoch_us, &diff)) { // the usual case: no 128-bit division
        if (layout.unit_us == 1000 && diff >= 0) // milliseconds since the epoch (the generator's hot path)
            return diff / 1000; // a constant divisor: a multiplication, not a division
        int64_t q = diff / layout.unit_us;
        return (diff % layout.unit_us < 0) ? q - 1 : q;
    }
    return saturate(floor_div(i128{ts_us} - layout.epoch_us, layout.unit_us));
}

int64_t unit_start_us(const Layout& layout, int64_t unit)
{
    return saturate(i128{layout.epoch_us} + i128{unit} * layout.unit_us);
}

int64_t unit_end_us(const Layout& layout, int64_t unit) { return saturate(i128{layout.epoch_us} + (i128{unit} + 1) * layout.unit_us); }

int64_t last_ts_us(const Layout& layout)
{
    return saturate(i128{layout.epoch_us} + (i128{layout.max_value(Field::Time)} + 1) * layout.unit_us - 1);
}

int64_t pack(const Layout& layout, int64_t ts_us, int64_t node, int64_t seq, int64_t rand)
{
    // Exact, not saturated: a timestamp more than 2^63 units from the epoch is out of range.
    const i128 exact = floor_div(i128{ts_us} - layout.epoch_us, layout.unit_us);
    if (exact < 0 || exact > layout.max_value(Field::Time))
        fail_timestamp_out_of_range(layout, format_timestamp_us(ts_us));
    return place(layout, {static_cast<int64_t>(exact), node, seq, rand});
}

Unpacked unpack(const Layout& layout, int64_t id)
{
    if (id < 0 || id > layout.max_id())
        fail(ErrorKind::OutOfRange,
             "snowflake id " + std::to_string(id) + " is out of range for layout " + quoted(layout.name),
             "The layout " + quoted(layout.name) + " allows ids from 0 to " + std::to_string(layout.max_id()) + ".");
    auto get = [&](Field f) { return (id >> layout[f].shift) & layout.max_value(f); };
    int64_t unit = get(Field::Time);
    i128 ts = i128{layout.epoch_us} + i128{unit} * layout.unit_us;
    if (ts > kInt64Max)
        fail(ErrorKind::OutOfRange,
             "timestamp of snowflake id " + std::to_string(id) + " is out of range for layout " + quoted(layout.name),
             "Its time field counts " + std::to_string(unit) + " units from the epoch, past the largest timestamp.");
    return Unpacked{static_cast<int64_t>(ts), get(Field::Node), get(Field::Seq), get(Field::Rand)};
}

int64_t min_id(const Layout& layout, int64_t ts_us) { return pack(layout, ts_us, 0, 0, 0); }

bool time_first(const Layout& layout)
{
    const FieldBits& t = layout[Field::Time];
    return t.width > 0 && t.shift + t.width == layout.total_bits();
}

namespace {

// ceil(a / b) for b > 0
i128 ceil_div(i128 a, i128 b) { return -floor_div(-a, b); }

} // namespace

// An id's time is epoch + unit * unit_us, and on a time-first layout its unit is id >> shift.
Bound first_id_from(const Layout& layout, int64_t ts_us, bool exclusive, int64_t& id)
{
    const i128 d = i128{ts_us} - layout.epoch_us;
    // the first unit whose start is >= ts (exclusive: > ts)
    const i128 unit = exclusive ? floor_div(d, layout.unit_us) + 1 : ceil_div(d, layout.unit_us);
    if (unit <= 0)
        return Bound::All;
    if (unit > layout.max_value(Field::Time))
        return Bound::None;
    id = static_cast<int64_t>(unit) << layout[Field::Time].shift;
    return Bound::At;
}

Bound last_id_to(const Layout& layout, int64_t ts_us, bool exclusive, int64_t& id)
{
    const i128 d = i128{ts_us} - layout.epoch_us;
    // the last unit whose start is <= ts (exclusive: < ts)
    const i128 unit = exclusive ? ceil_div(d, layout.unit_us) - 1 : floor_div(d, layout.unit_us);
    if (unit < 0)
        return Bound::None;
    if (unit >= layout.max_value(Field::Time))
        return Bound::All;
    id = (static_cast<int64_t>(unit + 1) << layout[Field::Time].shift) - 1;
    return Bound::At;
}

int64_t last_timed_id(const Layout& layout)
{
    int64_t id = 0;
    return last_id_to(layout, kInt64Max, false, id) == Bound::At ? id : layout.max_id();
}

int64_t counter_space(const Layout& layout)
{
    Field f = layout.has(Field::Seq) ? Field::Seq : Field::Rand; // Rand absent: width 0, space 1
    return layout.max_value(f) + 1;
}

Step next(const Layout& layout, GenState& state, int64_t now_unit, uint64_t random64, int64_t ahead_units,
          int64_t mono_us)
{
    const int64_t max_unit = layout.max_value(Field::Time);
    const int64_t clock_back = now_unit < state.last_now ? saturate(i128{state.last_now} - now_unit) : 0;

    if (state.last_unit < 0 && now_unit < 0)
        fail(ErrorKind::OutOfRange, "current time is before the epoch of snowflake layout " + quoted(layout.name),
             time_range_detail(layout), "Check the system clock, or use a layout whose epoch has passed.");

    int64_t unit, counter;
    bool past_last_unit = false; // the unit after last_unit does not exist
    if (now_unit > state.last_unit) {
        unit = now_unit;
        counter = counter_start(layout, random64);
    } else if (state.counter < counter_space(layout) - 1) {
        unit = state.last_unit;
        counter = state.counter + 1;
    } else {
        past_last_unit = state.last_unit >= max_unit;
        unit = past_last_unit ? max_unit : state.last_unit + 1;
        counter = counter_start(layout, random64);
    }
    if (past_last_unit || unit > max_unit)
        fail(ErrorKind::OutOfRange, "snowflake layout " + quoted(layout.name) + " has run out of time bits",
             time_range_detail(layout), "Use a layout with a later epoch or more time bits.");

    // The frontier: the last unit ids may use now. The clock's unit plus ahead_units, or the
    // anchored frontier when later: the anchor plus the monotonic units elapsed since it was
    // set, never more than one unit past the last id (so it shrinks when the ids fall behind
    // it). Ids beyond both were put there by an event: they anchor the frontier one unit past
    // their unit, from now on. An event never follows from the pace: while an anchor holds,
    // the last id is never beyond the frontier, so only a real step (of the clock, the
    // setting, or a restart) sets a new one, and backends whose clocks disagree cannot
    // ratchet the ids ahead. Once the clock's frontier reaches the anchored one, the anchor goes.
    const int64_t ahead = std::max<int64_t>(ahead_units, 0);
    const int64_t mono = mono_us != kNoMono ? mono_us : saturate(i128{now_unit} * layout.unit_us);
    const i128 base = i128{now_unit} + ahead;
    int64_t anchor_unit = state.anchor_unit, anchor_mono = state.anchor_mono_us;
    if (state.last_unit < 0 || state.last_unit <= base)
        anchor_unit = -1; // the ids are within the clock's frontier: no event holds them ahead
    i128 frontier = base;
    if (anchor_unit >= 0) {
        const i128 elapsed = mono > anchor_mono ? (i128{mono} - anchor_mono) / layout.unit_us : 0;
        i128 anchored = i128{anchor_unit} + elapsed;
        if (state.last_unit >= 0 && anchored > i128{state.last_unit} + 1) { // follow the ids down
            anchored = i128{state.last_unit} + 1;
            anchor_unit = state.last_unit + 1;
            anchor_mono = mono;
        }
        frontier = std::max(frontier, anchored);
    }
    if (state.last_unit >= 0 && state.last_unit > frontier) {
        // plus the one unit a spent unit moves on to, so that nobody waits for the clock
        anchor_unit = saturate(i128{state.last_unit} + 1);
        anchor_mono = mono;
        frontier = anchor_unit;
    }
    if (state.node_changed && unit > frontier && unit == state.last_unit + 1) {
        // A node id change starts a new unit (ids of the new node in the old id's unit could
        // meet ids it issued there before an earlier change). No id of this generator lies in
        // the unit after the last one, so the new node's ids go there at once instead of
        // waiting for the clock, which could take a whole unit (an hour on an hourly layout):
        // an event, like a restart above the clock, that anchors the frontier one unit past
        // the last id, going on at the pace of monotonic time. The ids are then at most one
        // unit ahead of the clock, and the gap never widens.
        anchor_unit = unit;
        anchor_mono = mono;
        frontier = unit;
    }
    if (frontier <= base)
        anchor_unit = -1;
    if (unit > frontier) {
        state.anchor_unit = anchor_unit;
        state.anchor_mono_us = anchor_mono;
        return Step{Step::WaitForClock, saturate(i128{now_unit} + (i128{unit} - frontier)), 0, clock_back};
    }
    if (unit > state.reserved_unit || (unit == state.reserved_unit && counter > state.reserved_counter))
        return Step{Step::NeedReservation, unit, counter, clock_back};
    state.last_unit = unit;
    state.counter = counter;
    state.last_now = now_unit;
    state.anchor_unit = anchor_unit;
    state.anchor_mono_us = anchor_mono;
    state.node_changed = false;
    return Step{Step::Issue, unit, counter, clock_back};
}

bool next_reads_mono(const GenState& state, int64_t now_unit, int64_t ahead_units)
{
    // With the last id at or below the frontier next() drops any anchor, issues into a unit
    // up to the frontier, or waits at it; it sets an anchor only for a last id beyond it, or
    // for a node change at it (the new node's first unit then lies just past it).
    const i128 base = i128{now_unit} + std::max<int64_t>(ahead_units, 0);
    return state.anchor_unit >= 0 || state.last_unit > base || (state.last_unit == base && state.node_changed);
}

int64_t anchor_offset(const Layout& layout, const GenState& state)
{
    if (state.anchor_unit < 0)
        return 0;
    const int64_t d = saturate(i128{state.anchor_unit} * layout.unit_us - state.anchor_mono_us);
    return d == 0 ? -1 : d; // 0 means none: one microsecond earlier instead
}

void set_anchor_from_offset(const Layout& layout, GenState& state, int64_t offset, int64_t mono_us)
{
    state.anchor_unit = -1;
    state.anchor_mono_us = 0;
    if (offset == 0)
        return;
    const i128 a = floor_div(i128{mono_us} + offset, layout.unit_us);
    if (a < 0 || a > layout.max_value(Field::Time))
        return;
    state.anchor_unit = static_cast<int64_t>(a);
    state.anchor_mono_us = saturate(a * layout.unit_us - offset);
}

int64_t compose(const Layout& layout, int64_t unit, int64_t node, int64_t counter, uint64_t random64)
{
    const bool seq = layout.has(Field::Seq);
    const int64_t rand = seq ? static_cast<int64_t>(random64 & static_cast<uint64_t>(layout.max_value(Field::Rand)))
                             : counter;
    return place(layout, {unit, layout.has(Field::Node) ? node : 0, seq ? counter : 0, rand});
}

void check_node_id(const Layout& layout, int64_t node_id)
{
    if (!layout.has(Field::Node))
        return;
    const std::string range = "The layout " + quoted(layout.name) + " allows node ids from 0 to " +
        std::to_string(layout.max_value(Field::Node)) + ".";
    if (node_id < 0)
        fail(ErrorKind::Prerequisite, "idseq.node_id is not set", range,
             "Give this server a node id no other server uses, in postgresql.conf or with ALTER SYSTEM SET "
             "idseq.node_id = ..., then reload the configuration with SELECT pg_reload_conf(). A Citus node "
             "without one takes its group's once the coordinator has added it.");
    if (node_id > layout.max_value(Field::Node))
        fail(ErrorKind::Prerequisite,
             "idseq.node_id value " + std::to_string(node_id) + " is too large for snowflake layout " +
                 quoted(layout.name),
             range, "Set idseq.node_id to a smaller value, or use a layout with a wider node field.");
}

void restart_from(GenState& state, int64_t durable_unit)
{
    state.last_unit = std::max(state.last_unit, durable_unit); // never moves backwards
    finish_unit(state);
    state.reserved_unit = durable_unit;
    state.last_now = INT64_MIN;
}

namespace {
int counter_bits(const Layout& layout) { return layout[layout.has(Field::Seq) ? Field::Seq : Field::Rand].width; }
} // namespace

uint64_t pack_position(const Layout& layout, const Position& pos)
{
    if (pos.last_unit < 0)
        return 0;
    const int cb = counter_bits(layout), nb = layout[Field::Node].width;
    const uint64_t counter = static_cast<uint64_t>(std::min(pos.counter, counter_space(layout) - 1));
    const uint64_t node = static_cast<uint64_t>(pos.node) & static_cast<uint64_t>(layout.max_value(Field::Node));
    return ((static_cast<uint64_t>(pos.last_unit) + 1) << (nb + cb)) | (node << cb) | counter;
}

Position unpack_position(const Layout& layout, uint64_t word)
{
    Position pos;
    if (word == 0)
        return pos;
    const int cb = counter_bits(layout), nb = layout[Field::Node].width;
    pos.counter = static_cast<int64_t>(word & static_cast<uint64_t>(Layout::ones(cb)));
    pos.node = static_cast<int64_t>((word >> cb) & static_cast<uint64_t>(Layout::ones(nb)));
    pos.last_unit = static_cast<int64_t>((word >> (nb + cb)) - 1); // unit + 1 may be 2^63 (time:63)
    return pos;
}

uint64_t position_of(const Layout& layout, const GenState& state, int64_t node)
{
    return pack_position(layout, Position{state.last_unit, layout.has(Field::Node) ? node : 0, state.counter});
}

GenState state_at(const Layout& layout, uint64_t word, int64_t node, int64_t reserved_unit, int64_t last_now,
                  int64_t anchor_unit, int64_t anchor_mono_us)
{
    const Position pos = unpack_position(layout, word);
    GenState state;
    state.last_unit = pos.last_unit;
    state.counter = pos.counter;
    if (pos.last_unit >= 0 && layout.has(Field::Node) && pos.node != node) {
        finish_unit(state);
        state.node_changed = true;
    }
    state.reserved_unit = reserved_unit;
    state.last_now = last_now;
    state.anchor_unit = anchor_unit;
    state.anchor_mono_us = anchor_mono_us;
    return state;
}

bool fast_next(const Layout& layout, uint64_t word, int64_t node, int64_t now_unit, int64_t reserved_unit,
               int64_t reserved_counter, uint64_t random64, int64_t ahead_units, FastIssue& out)
{
    const Position pos = unpack_position(layout, word);
    if (now_unit < 0)
        return false; // before the epoch: next() decides (an error, or ids ahead of the clock)
    const int64_t ahead = std::max<int64_t>(ahead_units, 0);
    // next() sets no anchor only while the last id is within ahead units of the clock.
    if (pos.last_unit >= 0 && i128{pos.last_unit} - now_unit > ahead)
        return false;
    const bool same_node = !layout.has(Field::Node) || pos.node == node;
    int64_t unit, counter;
    if (now_unit > pos.last_unit) {
        unit = now_unit;
        counter = counter_start(layout, random64);
    } else if (same_node && pos.counter < counter_space(layout) - 1) {
        unit = pos.last_unit;
        counter = pos.counter + 1;
    } else {
        unit = pos.last_unit + 1; // pos.last_unit <= now_unit + ahead: no overflow
        counter = counter_start(layout, random64);
    }
    if (unit > layout.max_value(Field::Time) || i128{unit} > i128{now_unit} + ahead || unit > reserved_unit ||
        (unit == reserved_unit && counter > reserved_counter))
        return false;
    out.unit = unit;
    out.counter = counter;
    out.word = pack_position(layout, Position{unit, layout.has(Field::Node) ? node : 0, counter});
    return true;
}

WordStep word_step(const Layout& layout)
{
    WordStep ws;
    const int cb = counter_bits(layout), nb = layout[Field::Node].width;
    ws.unit_shift = nb + cb;
    ws.counter_bits = cb;
    ws.counter_mask = static_cast<uint64_t>(Layout::ones(cb));
    ws.node_mask = static_cast<uint64_t>(Layout::ones(nb)) << cb;
    ws.max_unit = layout.max_value(Field::Time);
    return ws;
}

int64_t ClockWaiter::sleep_for(int64_t now_us, int64_t target_us)
{
    if (now_us >= target_us)
        return 0;
    const i128 left = i128{target_us} - now_us;
    return left <= kSpinWindowUs ? 0 : static_cast<int64_t>(std::min<i128>(left - kSpinWindowUs, kMaxSleepUs));
}

int64_t ahead_units(const Layout& layout, int64_t ahead_us)
{
    return ahead_us <= 0 ? 0 : ahead_us / layout.unit_us;
}

int64_t lease_units(const Layout& layout, int64_t lease_us)
{
    if (lease_us <= 0)
        return 0;
    return static_cast<int64_t>((i128{lease_us} + layout.unit_us - 1) / layout.unit_us);
}

int64_t reservation_target(const Layout& layout, int64_t unit, int64_t now_unit, int64_t lease)
{
    const i128 ahead = std::max(i128{unit}, i128{now_unit} + std::max<int64_t>(lease, 0));
    const int64_t target = static_cast<int64_t>(std::min<i128>(ahead, layout.max_value(Field::Time)));
    return std::max(target, unit);
}

GenState resume_saved(const GenState& saved, int64_t durable_unit)
{
    GenState state;
    if (saved.last_unit < 0 || saved.last_unit > durable_unit) {
        restart_from(state, durable_unit);
        return state;
    }
    state.last_unit = saved.last_unit;
    state.counter = saved.counter;
    state.reserved_unit = durable_unit;
    state.last_now = kInt64Min; // the clock reading before the shutdown is not this run's
    return state;
}

namespace {
// The counter's bits in a mark inside a unit, and how many low bits of the packed mark do not
// fit beside 2^time_bits in a bigint (0 or 1).
struct MarkBits {
    int tb, nb, cb, dropped;
};
MarkBits mark_bits(const Layout& layout)
{
    const int tb = layout[Field::Time].width, nb = layout[Field::Node].width, cb = counter_bits(layout);
    return MarkBits{tb, nb, cb, tb + nb + cb >= kMaxLayoutBits ? 1 : 0};
}
Mark whole_mark(int64_t unit)
{
    Mark m;
    m.unit = unit < 0 ? -1 : unit;
    return m;
}
} // namespace

int64_t encode_mark(const Layout& layout, const Mark& mark) noexcept
{
    if (mark.unit < 0)
        return -1;
    const MarkBits b = mark_bits(layout);
    const int64_t last = counter_space(layout) - 1;
    const int64_t counter = mark.whole() ? last : (mark.counter | (b.dropped ? 1 : 0));
    if (b.cb == 0 || counter >= last || mark.unit > layout.max_value(Field::Time))
        return mark.unit;
    const uint64_t node = static_cast<uint64_t>(mark.node) & static_cast<uint64_t>(layout.max_value(Field::Node));
    const uint64_t packed = (static_cast<uint64_t>(mark.unit) << (b.nb + b.cb)) | (node << b.cb) |
        static_cast<uint64_t>(counter);
    return static_cast<int64_t>((uint64_t{1} << b.tb) + (packed >> b.dropped)); // < 2^63: tb + nb + cb - dropped <= 62
}

Mark decode_mark(const Layout& layout, int64_t value) noexcept
{
    const int64_t max_unit = layout.max_value(Field::Time);
    if (value <= max_unit)
        return whole_mark(value);
    const MarkBits b = mark_bits(layout);
    if (b.cb == 0)
        return whole_mark(value);
    const uint64_t payload = static_cast<uint64_t>(value) - (uint64_t{1} << b.tb);
    if (b.tb + b.nb + b.cb - b.dropped < 64 && (payload >> (b.tb + b.nb + b.cb - b.dropped)) != 0)
        return whole_mark(value); // beyond every mark inside a unit: a number set by hand
    const uint64_t packed = (payload << b.dropped) | (b.dropped ? 1 : 0);
    Mark m;
    m.unit = static_cast<int64_t>(packed >> (b.nb + b.cb));
    m.node = static_cast<int64_t>((packed >> b.cb) & static_cast<uint64_t>(Layout::ones(b.nb)));
    m.counter = static_cast<int64_t>(packed & static_cast<uint64_t>(Layout::ones(b.cb)));
    if (m.counter >= counter_space(layout) - 1)
        return whole_mark(m.unit);
    return m;
}

Mark mark_max(const Mark& a, const Mark& b) noexcept
{
    if (a.unit != b.unit)
        return a.unit > b.unit ? a : b;
    if (a.whole() || b.whole() || a.node != b.node)
        return whole_mark(a.unit);
    return a.counter >= b.counter ? a : b;
}

bool mark_covers(const Mark& a, const Mark& b) noexcept { return mark_max(a, b) == a || b.unit < 0; }

Mark mark_min(const Mark& a, const Mark& b) noexcept
{
    if (mark_covers(a, b))
        return b;
    if (mark_covers(b, a))
        return a;
    return whole_mark(std::min(a.unit, b.unit) - 1); // one unit, two nodes: the units before it
}

void apply_mark(const Layout& layout, GenState& state, const Mark& mark, int64_t node) noexcept
{
    state.reserved_unit = mark.unit;
    state.reserved_counter = kCounterSpent;
    if (mark.unit < 0 || mark.whole())
        return;
    if (!layout.has(Field::Node) || mark.node == node)
        state.reserved_counter = mark.counter;
    else
        state.reserved_unit = mark.unit - 1;
}

bool mark_covers_id(const Layout& layout, const Mark& mark, int64_t unit, int64_t node, int64_t counter) noexcept
{
    GenState st;
    apply_mark(layout, st, mark, node);
    return unit < st.reserved_unit || (unit == st.reserved_unit && counter <= st.reserved_counter);
}

Mark reservation_mark(const Layout& layout, int64_t unit, int64_t counter, int64_t node, int64_t now_us,
                      int64_t lease_us, const Mark& current)
{
    const int64_t max_unit = layout.max_value(Field::Time);
    const int64_t space = counter_space(layout);
    const int64_t node_v = layout.has(Field::Node) ? node : 0;
    // Places in the ids of node_v as one number, unit * space + counter (< 2^126: unit < 2^63,
    // space <= 2^62), so that a block may cross into the units after the step's.
    const i128 step = i128{unit} * space + counter;
    const i128 unit_end = i128{unit} * space + space - 1;
    // W: what the layout issues in a lease at its whole capacity (< 2^126 too)
    const i128 worth =
        std::max<i128>(1, (i128{space} * std::max<int64_t>(lease_us, 0) + layout.unit_us - 1) / layout.unit_us);
    auto mark_at = [&](i128 place) {
        const i128 u = place / space;
        if (u > max_unit)
            return whole_mark(max_unit);
        Mark m;
        m.unit = static_cast<int64_t>(u);
        m.node = node_v;
        m.counter = static_cast<int64_t>(place % space);
        return m.counter >= space - 1 ? whole_mark(m.unit) : m;
    };
    i128 target = -1;
    if (lease_us > 0) {
        // The lease point: the unit at now + lease, and in it the counter its elapsed part
        // of the unit would have reached at the layout's capacity.
        const int64_t at = saturate(i128{now_us} + lease_us);
        const int64_t lu = unit_of(layout, at);
        i128 lease_point = -1;
        if (lu > max_unit) {
            lease_point = i128{max_unit} * space + space - 1;
        } else if (lu >= 0) {
            const i128 into = i128{at} - unit_start_us(layout, lu); // 0 <= into < unit_us
            lease_point = i128{lu} * space + into * space / layout.unit_us;
        }
        if (step <= lease_point) {
            // A lease's worth of the layout's capacity past the step, never beyond the lease
            // point: the ids of a unit start at its first counter, not at the clock's share of
            // it, so on a unit longer than the lease a mark at the lease point would lie up to
            // the whole unit above the ids, and a crash would skip all of that.
            target = std::min(lease_point, step + worth - 1);
        }
    }
    if (target < 0) // beyond the lease point: W inside the step's unit (lease 0: the rest of it)
        target = std::min(step + (lease_us > 0 ? worth : i128{space}) - 1, unit_end);
    return mark_max(mark_at(target), current);
}

void restart_from_mark(const Layout& layout, GenState& state, const Mark& mark, int64_t node)
{
    const bool inside = mark.unit >= 0 && !mark.whole() && (!layout.has(Field::Node) || mark.node == node) &&
        (state.last_unit < mark.unit ||
         (state.last_unit == mark.unit && state.counter != kCounterSpent && state.counter <= mark.counter));
    restart_from(state, mark.unit);
    if (inside)
        state.counter = mark.counter;
    apply_mark(layout, state, mark, node);
}

GenState rebuild_state_marks(const Layout& layout, bool last_known, int64_t last_id, const Mark& restart,
                             const Mark& reserved, int64_t node_id)
{
    GenState state;
    if (last_known)
        state = resume_from_last_id(layout, last_id, reserved.unit, node_id);
    else
        restart_from_mark(layout, state, restart, node_id);
    apply_mark(layout, state, mark_max(reserved, restart), node_id);
    return state;
}

int64_t counter_of(const Layout& layout, int64_t id)
{
    Field f = layout.has(Field::Seq) ? Field::Seq : Field::Rand; // neither: width 0, value 0
    return (id >> layout[f].shift) & layout.max_value(f);
}

int64_t node_of(const Layout& layout, int64_t id)
{
    return (id >> layout[Field::Node].shift) & layout.max_value(Field::Node);
}

int64_t fence_of_mark(const Layout& layout, const Mark& mark) noexcept
{
    if (mark.unit < 0)
        return 0;
    if (mark.whole())
        return std::max<int64_t>(0, unit_end_us(layout, mark.unit));
    // The time at which the lease point (reservation_mark) reaches the mark's counter: the
    // elapsed part of the unit that counter + 1 of counter_space makes, rounded up.
    const int64_t space = counter_space(layout);
    const i128 into = ((i128{mark.counter} + 1) * layout.unit_us + space - 1) / space;
    return std::max<int64_t>(0, saturate(i128{unit_start_us(layout, mark.unit)} + into));
}

Mark fence_mark(const Layout& layout, int64_t fence_us, int64_t node) noexcept
{
    if (fence_us <= 0)
        return Mark{};
    const int64_t unit = unit_of(layout, fence_us - 1); // the unit of the fence's last microsecond
    if (unit < 0)
        return Mark{};
    const int64_t max_unit = layout.max_value(Field::Time);
    if (unit > max_unit)
        return whole_mark(max_unit);
    const int64_t space = counter_space(layout);
    const i128 into = i128{fence_us} - unit_start_us(layout, unit); // 1 .. unit_us
    const int64_t counter = static_cast<int64_t>(into * space / layout.unit_us) - 1;
    if (counter >= space - 1)
        return whole_mark(unit);
    if (counter < 0)
        return unit > 0 ? whole_mark(unit - 1) : Mark{};
    Mark m;
    m.unit = unit;
    m.node = layout.has(Field::Node) ? node : 0;
    m.counter = counter;
    return m;
}

int64_t unit_of_id(const Layout& layout, int64_t id)
{
    return (id >> layout[Field::Time].shift) & layout.max_value(Field::Time);
}

GenState resume_from_last_id(const Layout& layout, int64_t last_id, int64_t durable_unit, int64_t node_id)
{
    if (last_id < 0 || last_id > layout.max_id())
        fail(ErrorKind::OutOfRange,
             "snowflake id " + std::to_string(last_id) + " is out of range for layout " + quoted(layout.name),
             "The layout " + quoted(layout.name) + " allows ids from 0 to " + std::to_string(layout.max_id()) + ".");
    GenState state;
    state.last_unit = unit_of_id(layout, last_id);
    state.counter = counter_of(layout, last_id);
    state.reserved_unit = durable_unit;
    state.last_now = kInt64Min;
    if (layout.has(Field::Node) && node_of(layout, last_id) != node_id) {
        finish_unit(state);
        state.node_changed = true;
    }
    return state;
}

GenState rebuild_state(const Layout& layout, bool last_known, int64_t last_id, int64_t restart_unit,
                       int64_t reserved_unit, int64_t node_id)
{
    GenState state;
    if (last_known)
        state = resume_from_last_id(layout, last_id, reserved_unit, node_id);
    else
        restart_from(state, restart_unit);
    state.reserved_unit = std::max(reserved_unit, restart_unit);
    return state;
}

Mark mark_for_id(const Layout& layout, const Mark& current, int64_t unit, int64_t counter, int64_t node,
                 int64_t now_us, int64_t lease_us)
{
    if (mark_covers_id(layout, current, unit, node, counter))
        return current;
    return reservation_mark(layout, unit, counter, node, now_us, lease_us, current);
}

// ---- The word a shared-memory slot restarts from -------------------------------------------------

uint64_t restart_word(const Layout& layout, bool has_node, const Mark& mark, int64_t word_node)
{
    Mark m = mark;
    if (has_node && m.unit >= 0 && !m.whole() && m.node != word_node) {
        if (word_node > m.node)
            m = m.unit > 0 ? Mark{m.unit - 1} : Mark{};
        else
            m = Mark{m.unit};
    }
    GenState st{};
    restart_from_mark(layout, st, m, word_node);
    return position_of(layout, st, word_node);
}

uint64_t slot_setup_word(const Layout& layout, uint64_t old_word, const Mark& mark, bool resume, int64_t last_id)
{
    const Position p = unpack_position(layout, old_word);
    GenState st{};
    st.last_unit = p.last_unit;
    st.counter = p.counter;
    int64_t word_node = p.node;
    const bool last_known = !resume && last_id >= 0 && last_id <= layout.max_id();
    const Position last = last_known
        ? Position{unit_of_id(layout, last_id), node_of(layout, last_id), counter_of(layout, last_id)}
        : Position{};
    if (resume && p.last_unit >= 0 && mark_covers_id(layout, mark, p.last_unit, p.node, p.counter)) {
        st = resume_saved(st, mark.unit);
    } else if (last_known && pack_position(layout, last) >= old_word &&
               mark_covers_id(layout, mark, last.last_unit, last.node, last.counter)) {
        word_node = last.node;
        st = resume_from_last_id(layout, last_id, mark.unit, word_node);
    } else {
        word_node = mark.whole() ? p.node : mark.node;
        restart_from_mark(layout, st, mark, word_node);
    }
    return pack_position(layout, Position{st.last_unit, word_node, st.counter});
}

StreamWords stream_words(const Layout& layout, const StreamJoin& j)
{
    StreamWords w;
    const int64_t mark_us = fence_of_mark(layout, j.mark);
    w.foreign = mark_us > j.fence_us;
    w.own = restart_word(layout, j.has_node, j.mark, j.word_node);
    if (j.mine && j.last_id >= 0 && j.last_id <= layout.max_id()) {
        // the pair's last id while it is known (a clean restart): the ids go on right after it
        const Position p{unit_of_id(layout, j.last_id), node_of(layout, j.last_id), counter_of(layout, j.last_id)};
        if (p.node == (j.has_node ? j.word_node : 0) && mark_covers_id(layout, j.mark, p.last_unit, p.node, p.counter))
            w.own = position_of(layout, resume_from_last_id(layout, j.last_id, j.mark.unit, j.word_node), j.word_node);
    }
    if (j.above_fence)
        w.fenced = restart_word(layout, j.has_node, fence_mark(layout, j.fence_us, j.word_node), j.word_node);
    const Position last = unpack_position(layout, j.issuer_word);
    if (last.last_unit >= 0)
        w.after_mine = restart_word(layout, j.has_node, Mark{last.last_unit, last.node, last.counter}, j.word_node);
    w.fence_now = fence_mark(layout, std::max(j.fence_us, mark_us), j.word_node);
    return w;
}

uint64_t stream_setup_word(const Layout& layout, uint64_t old_word, bool saved, const StreamWords& w)
{
    const Position p = unpack_position(layout, old_word);
    if (saved && p.last_unit >= 0 && mark_covers_id(layout, w.fence_now, p.last_unit, p.node, p.counter))
        return std::max(w.foreign ? std::max(old_word, w.own) : old_word, w.after_mine);
    return std::max(std::max(w.own, w.fenced), w.after_mine);
}

bool sync_standbys_status_bits(int server_version_num)
{
    // The first minor of each major with the bits: the minor releases of 2025-05-08 carry
    // "Fix race condition in handling of synchronous_standby_names immediately after
    // startup", which turned bool sync_standbys_defined into bits8 sync_standbys_status in
    // replication/walsender_private.h. Checked against each branch's release notes, which
    // link the branch's commit: 15.13 = REL_15_STABLE ec59500a1, 16.9 = REL_16_STABLE
    // c922ae2c4, 17.5 = REL_17_STABLE 3339847cc. The change reached master in April 2025,
    // before REL_18_STABLE branched, so 18 has the bits from its first release. The 13 and 14
    // boundaries (13.21, 14.18: the same day's releases of those branches) are assumed, not
    // checked against their release notes; idseq supports 15 and later. Majors before 13
    // never had the bits.
    const int major = server_version_num / 10000;
    switch (major) {
    case 13: return server_version_num >= 130021;
    case 14: return server_version_num >= 140018;
    case 15: return server_version_num >= 150013;
    case 16: return server_version_num >= 160009;
    case 17: return server_version_num >= 170005;
    default: return major >= 18;
    }
}

int sync_standbys_required(int server_version_num, uint8_t flag)
{
    if (!sync_standbys_status_bits(server_version_num))
        return flag != 0 ? 1 : 0;
    if ((flag & 1) == 0)
        return -1;
    return (flag & 2) != 0 ? 1 : 0;
}

} // namespace idseq
