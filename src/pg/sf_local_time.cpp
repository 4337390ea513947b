// The bounds of time predicates whose other side is not a timestamptz, or whose id's time is
// read in local time (docs/time.md, "Time predicates"; planned by sf_time_quals.cpp,
// which says where each is used):
//
//   idseq_compare_as_timestamptz(date | timestamp)
//       the value PostgreSQL compares a timestamptz with: the date's midnight (the timestamp)
//       in the session's TimeZone. A finite value past timestamptz's range compares above
//       (below) every finite timestamptz and below infinity; it becomes infinity (-infinity),
//       which compares the same way with every time an id has, so the bound functions can
//       take it where PostgreSQL's cast would raise an error.
//   idseq_snowflake_date_lower_id(d, layout, exclusive), ..._upper_id
//       ids whose time's date in the session's TimeZone (snowflake_timestamp(id)::date) is
//       >= d (> d), <= d (< d).
//   idseq_snowflake_trunc_lower_id(unit, x, zone, layout, exclusive), ..._upper_id
//       ids whose date_trunc(unit, time[, zone]) is >= x (> x), <= x (< x); zone NULL: the
//       session's TimeZone.
//   idseq_snowflake_date_exact(d, cmp), idseq_snowflake_trunc_exact(unit, x, zone, cmp)
//       whether the ids between those bounds are exactly the ones the predicate selects.
//
// Local time is not monotonic in the instant (clocks set back repeat an hour, and where that
// crosses midnight, America/St_Johns until 2011, a date comes back after the next one
// began), so the ids of a local-time predicate are not always one range. These bounds give
// the least and greatest instant that can qualify (exact where the set is one range, a range
// holding it otherwise). The planner keeps the predicate as (exact OR predicate): the _exact
// function, computed once for the query like the bounds (its answer is kept per call site),
// spares the predicate's evaluation on every row where the range is exact, and where it is
// not the predicate gives the rows. The instants come from PostgreSQL's own time zone code:
// a date's instants from the offsets timestamp2tm (which timestamptz::date and date_trunc
// call) gives each instant, a truncated time's instant from DetermineTimeZoneOffset and
// tm2timestamp, as date_trunc computes it.
//
// Every bound assumes UTC offsets shorter than a week (idseq::kZoneWindowUs): PostgreSQL
// accepts at most 167:59:59. Where PostgreSQL's time zone code cannot answer (an instant near
// the ends of timestamptz's range), the bound widens to what that assumption alone gives; it
// never raises an error the predicate would not.
#include "local_time.h"
#include "sf_internal.h"

extern "C" {
#include "datatype/timestamp.h"
#include "parser/scansup.h"
#include "pgtime.h"
#include "utils/date.h"
#include "utils/datetime.h"

PG_FUNCTION_INFO_V1(idseq_compare_as_timestamptz_date);
PG_FUNCTION_INFO_V1(idseq_compare_as_timestamptz_timestamp);
PG_FUNCTION_INFO_V1(idseq_snowflake_date_lower_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_date_upper_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_trunc_lower_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_trunc_upper_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_date_exact);
PG_FUNCTION_INFO_V1(idseq_snowflake_trunc_exact);
}

using namespace snowflake;
using idseq::kZoneWindowUs;

namespace {

constexpr int64 kPgToUnixSec = (int64) (POSTGRES_EPOCH_JDATE - UNIX_EPOCH_JDATE) * SECS_PER_DAY;
// Spans read for one window: a zone changes its offset a few times a year.
constexpr int kMaxSpans = 64;

int64 saturating_add(int64 a, int64 b)
{
    int64 r;
    if (pg_add_s64_overflow(a, b, &r))
        return b > 0 ? PG_INT64_MAX : PG_INT64_MIN;
    return r;
}

int64 floor_div(int64 a, int64 b) // b > 0
{
    return a / b - (a % b < 0 ? 1 : 0);
}

// Local times whose window (+- 2 kZoneWindowUs) stays inside timestamptz's range, where
// PostgreSQL's time zone code answers for every instant.
bool in_zone_range(int64 local)
{
    return local >= MIN_TIMESTAMP + 2 * kZoneWindowUs && local < END_TIMESTAMP - 2 * kZoneWindowUs;
}

// The spans of tz over local +- kZoneWindowUs: each span's offset as timestamp2tm gives it
// (pg_localtime), its end at the next change of the zone's table (pg_next_dst_boundary: the
// two read the same transitions, so the offset holds up to there). false: no answer (then
// the core gives the window's edge).
bool zone_spans(pg_tz* tz, int64 local, idseq::ZoneSpan* spans, int& n)
{
    n = 0;
    if (!in_zone_range(local))
        return false;
    const int64 to = local + kZoneWindowUs;
    int64 t = local - kZoneWindowUs;
    while (n < kMaxSpans) {
        struct pg_tm tm;
        fsec_t fsec;
        int tzoff; // seconds west of UTC
        if (timestamp2tm(t, &tzoff, &tm, &fsec, nullptr, tz) != 0)
            break;
        pg_time_t sec = (pg_time_t) (floor_div(t, USECS_PER_SEC) + kPgToUnixSec);
        long int before_off, after_off;
        int before_dst, after_dst;
        pg_time_t boundary;
        int r = pg_next_dst_boundary(&sec, &before_off, &before_dst, &boundary, &after_off, &after_dst, tz);
        if (r < 0)
            break;
        int64 end = PG_INT64_MAX;
        if (r == 1 && boundary - kPgToUnixSec < END_TIMESTAMP / USECS_PER_SEC)
            end = (int64) (boundary - kPgToUnixSec) * USECS_PER_SEC;
        spans[n++] = {t, end, -(int64) tzoff * USECS_PER_SEC};
        if (end > to)
            return true;
        t = end;
    }
    n = 0;
    return false;
}

// An end of the instants a local-time predicate selects, and whether they are exactly the
// ones on its side of it (exact: every later instant qualifies, for a lower end; every
// earlier one, for an upper end). Not exact, the predicate must be checked on the range.
struct End {
    TimestampTz at;
    bool exact;
};

// The least instant whose local time in tz is >= local, or an earlier one.
End first_from_local(pg_tz* tz, int64 local)
{
    idseq::ZoneSpan spans[kMaxSpans];
    int n;
    zone_spans(tz, local, spans, n);
    End e = {0, false};
    run([&] { e.at = idseq::first_instant_from_local(spans, n, local, e.exact); });
    return e;
}

// The greatest instant whose local time in tz is < local, or a later one.
End last_before_local(pg_tz* tz, int64 local)
{
    idseq::ZoneSpan spans[kMaxSpans];
    int n;
    zone_spans(tz, local, spans, n);
    End e = {0, false};
    run([&] { e.at = idseq::last_instant_before_local(spans, n, local, e.exact); });
    return e;
}

// ---- date_trunc's units ---------------------------------------------------------------------

// The calendar's units (a day and longer) by the Julian day they start on, as date_trunc
// truncates: weeks start on Monday (ISO), quarters in January, April, July and October.
int unit_start(TruncUnit unit, int jd)
{
    int y, m, d;
    switch (unit) {
    case TruncUnit::Day:
        return jd;
    case TruncUnit::Week:
        return jd - (j2day(jd) + 6) % 7;
    default:
        break;
    }
    j2date(jd, &y, &m, &d);
    if (unit == TruncUnit::Year)
        return date2j(y, 1, 1);
    if (unit == TruncUnit::Quarter)
        return date2j(y, 3 * ((m - 1) / 3) + 1, 1);
    return date2j(y, m, 1);
}

int next_unit_start(TruncUnit unit, int start)
{
    int y, m, d;
    switch (unit) {
    case TruncUnit::Day:
        return start + 1;
    case TruncUnit::Week:
        return start + 7;
    default:
        break;
    }
    j2date(start, &y, &m, &d);
    if (unit == TruncUnit::Year)
        return date2j(y + 1, 1, 1);
    m += unit == TruncUnit::Quarter ? 3 : 1;
    return m > MONTHS_PER_YEAR ? date2j(y + 1, m - MONTHS_PER_YEAR, 1) : date2j(y, m, 1);
}

int julian_of(int64 local) { return (int) (floor_div(local, USECS_PER_DAY) + POSTGRES_EPOCH_JDATE); }

int64 local_of(int jd) { return (int64) (jd - POSTGRES_EPOCH_JDATE) * USECS_PER_DAY; }

// The instant date_trunc gives for a unit starting on jd (midnight local time in tz): the
// offset DetermineTimeZoneOffset chooses (in a gap the one before it, where clocks were set
// back the one after), then tm2timestamp, as timestamptz_trunc_internal does.
bool truncated_instant(pg_tz* tz, int jd, TimestampTz& out)
{
    struct pg_tm tm = {};
    j2date(jd, &tm.tm_year, &tm.tm_mon, &tm.tm_mday);
    int tzoff = DetermineTimeZoneOffset(&tm, tz);
    return tm2timestamp(&tm, 0, &tzoff, &out) == 0;
}

// Units of a day or more: date_trunc's result F(t) is the instant of the unit start u =
// trunc(local time of t), so F(t) >= x only where u is at or past the least unit start whose
// instant is >= x. A unit start more than kZoneWindowUs before x has an instant before x, one
// more than that after x an instant after it, so the search is short (for a year, the next
// January may lie past that: it is the one). The least instant whose local time reaches that
// start is the bound; exact when that set of instants is one range and no later unit start
// has an instant before x. Where PostgreSQL cannot give an instant, the bound widens to x - 2
// kZoneWindowUs (F(t) < t + 2 kZoneWindowUs: the local time is less than kZoneWindowUs after
// t, the unit's instant less than that after its start).
End trunc_lower(pg_tz* tz, TruncUnit unit, TimestampTz x)
{
    const End widest = {saturating_add(x, -2 * kZoneWindowUs), false};
    if (!in_zone_range(x))
        return widest;
    int jd = unit_start(unit, julian_of(x - kZoneWindowUs));
    for (;; jd = next_unit_start(unit, jd)) {
        TimestampTz instant;
        if (!truncated_instant(tz, jd, instant))
            return widest;
        if (instant >= x)
            break;
        if (local_of(jd) > x + kZoneWindowUs)
            return widest; // not reached: such a unit's instant is past x
    }
    End e = first_from_local(tz, local_of(jd));
    for (int later = next_unit_start(unit, jd); e.exact && local_of(later) <= x + kZoneWindowUs;
         later = next_unit_start(unit, later)) {
        TimestampTz instant;
        e.exact = truncated_instant(tz, later, instant) && instant >= x;
    }
    return e;
}

// F(t) <= x only where u is at or before the greatest unit start whose instant is <= x, so
// only where t's local time is before the next unit's start. The first unit start of the
// search (at most x - kZoneWindowUs) has an instant before x: there is always one. Exact when
// those instants are one range and no earlier unit start has an instant after x. The widest
// bound: F(t) > t - 2 kZoneWindowUs - (the longest unit, a leap year).
End trunc_upper(pg_tz* tz, TruncUnit unit, TimestampTz x)
{
    const End widest = {saturating_add(x, 2 * kZoneWindowUs + 366 * USECS_PER_DAY), false};
    if (!in_zone_range(x))
        return widest;
    int jd = unit_start(unit, julian_of(x - kZoneWindowUs));
    int last = jd;
    bool above = false, exact = true; // above: a unit start with an instant after x was seen
    for (jd = next_unit_start(unit, jd); local_of(jd) <= x + kZoneWindowUs; jd = next_unit_start(unit, jd)) {
        TimestampTz instant;
        if (!truncated_instant(tz, jd, instant))
            return widest;
        if (instant <= x) {
            exact = exact && !above;
            last = jd;
        } else {
            above = true;
        }
    }
    End e = last_before_local(tz, local_of(next_unit_start(unit, last)));
    e.exact = e.exact && exact;
    return e;
}

// The zone date_trunc(unit, ts, zone) reads: a fixed-offset abbreviation, a dynamic one's
// zone, or a full zone name, in that order (timestamptz_trunc_zone up to 15,
// DecodeTimezoneName from 16 on); nullptr when the name is none of them, where date_trunc
// raises an error row by row (the predicate, kept beside the bounds, then does).
pg_tz* zone_named(text* zone)
{
    char name[TZ_STRLEN_MAX + 1];
    text_to_cstring_buffer(zone, name, sizeof name);
    char* lower = downcase_truncate_identifier(name, strlen(name), false);
    int offset;
    pg_tz* tz = nullptr;
    int type = IDSEQ_DECODE_TIMEZONE_ABBREV(lower, &offset, &tz);
    if (type == TZ || type == DTZ)
        return pg_tzset_offset(-offset);
    if (type == DYNTZ)
        return tz;
    return pg_tzset(name);
}

// ---- The ends of the predicates ----------------------------------------------------------

// snowflake_timestamp(id)::date >= d (> d: d + 1) where the local time reaches d's midnight;
// <= d (< d: d - 1) where it is before the next midnight. An infinite d compares above
// (below) every date a time has: all or none, exactly.
End date_end(DateADT d, bool lower, bool exclusive)
{
    if (DATE_NOT_FINITE(d))
        return {DATE_IS_NOBEGIN(d) ? DT_NOBEGIN : DT_NOEND, true};
    // local midnights as microseconds, beyond timestamptz's range too (saturating)
    int64 day = (int64) d + (lower ? (exclusive ? 1 : 0) : (exclusive ? 0 : 1));
    int64 local;
    if (pg_mul_s64_overflow(day, USECS_PER_DAY, &local))
        local = day > 0 ? PG_INT64_MAX : PG_INT64_MIN;
    return lower ? first_from_local(session_timezone, local) : last_before_local(session_timezone, local);
}

TruncUnit checked_unit(text* unit_text)
{
    TruncUnit unit = trunc_unit_of(unit_text);
    if (unit == TruncUnit::None)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("unit \"%s\" not supported for snowflake time bounds",
                               downcase_truncate_identifier(VARDATA_ANY(unit_text), VARSIZE_ANY_EXHDR(unit_text),
                                                            false)),
                        errdetail("The units are microseconds, milliseconds, second, minute, hour, day, week, "
                                  "month, quarter and year.")));
    return unit;
}

// date_trunc(unit, time[, zone]) >= x (> x: >= x + 1 microsecond), <= x (< x: <= x - 1).
// Units under a day truncate the local time in the instant's own offset, so the result is at
// most the time and less than a unit before it: the bounds are x and x + unit - 1 (not
// exact). An infinite x compares above (below) every result: all or none, exactly.
End trunc_end(text* unit_text, TimestampTz x, text* zone, bool lower, bool exclusive)
{
    TruncUnit unit = checked_unit(unit_text);
    if (TIMESTAMP_NOT_FINITE(x))
        return {x, true};
    if (exclusive)
        x += lower ? 1 : -1; // finite timestamps are far from the ends of int64
    const int64 unit_us = trunc_unit_us(unit);
    if (unit_us > 0)
        return {lower ? x : saturating_add(x, unit_us - 1), false};
    pg_tz* tz = zone ? zone_named(zone) : session_timezone;
    if (!tz)
        return {lower ? DT_NOBEGIN : DT_NOEND, false};
    return lower ? trunc_lower(tz, unit, x) : trunc_upper(tz, unit, x);
}

// ---- The SQL functions, with the last answer of each call site kept -----------------------

// What a call site's last answer was computed from (variant: exclusive, or the comparison),
// and the end it gave. The zone in force (session_timezone) is part of it: pg_tz structures
// live as long as the backend, one per zone.
struct LastBound {
    bool valid;
    int variant;
    int64 x;
    pg_tz* session;
    int unit_len; // -1: no unit argument
    char unit[32];
    int zone_len; // -1: no zone argument
    char zone[TZ_STRLEN_MAX + 1];
    End end;
    // the id bound of id_instant for entry (a layout does not change while a query runs)
    Entry* entry;
    TimestampTz id_instant;
    bool has_id;
    int64 id;
};

LastBound* last_bound(FunctionCallInfo fcinfo)
{
    FnCache* fc = fn_cache(fcinfo);
    if (!fc->bound)
        fc->bound = MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, sizeof(LastBound));
    return (LastBound*) fc->bound;
}

bool same_text(int len, const char* kept, text* t)
{
    if (!t)
        return len < 0;
    return len == (int) VARSIZE_ANY_EXHDR(t) && memcmp(kept, VARDATA_ANY(t), len) == 0;
}

bool same(const LastBound* b, int variant, int64 x, text* unit, text* zone)
{
    return b->valid && b->variant == variant && b->x == x && b->session == session_timezone &&
           same_text(b->unit_len, b->unit, unit) && same_text(b->zone_len, b->zone, zone);
}

bool keep_text(int& len, char* kept, size_t size, text* t)
{
    len = t ? (int) VARSIZE_ANY_EXHDR(t) : -1;
    if (len >= (int) size)
        return false;
    if (t)
        memcpy(kept, VARDATA_ANY(t), len);
    return true;
}

void remember(LastBound* b, int variant, int64 x, text* unit, text* zone, End end)
{
    b->variant = variant;
    b->x = x;
    b->session = session_timezone;
    b->end = end;
    b->valid = keep_text(b->unit_len, b->unit, sizeof b->unit, unit) &&
               keep_text(b->zone_len, b->zone, sizeof b->zone, zone);
}

Datum id_bound_datum(FunctionCallInfo fcinfo, Entry* e, bool lower, LastBound* b)
{
    if (b->entry != e || b->id_instant != b->end.at) {
        b->entry = nullptr;
        b->has_id = time_bound(e, b->end.at, lower, false, b->id);
        b->id_instant = b->end.at;
        b->entry = e;
    }
    if (!b->has_id)
        PG_RETURN_NULL();
    PG_RETURN_INT64(b->id);
}

Datum date_bound(FunctionCallInfo fcinfo, bool lower)
{
    DateADT d = PG_GETARG_DATEADT(0);
    Entry* e = entry_for(fcinfo, 1);
    bool exclusive = PG_GETARG_BOOL(2);
    LastBound* b = last_bound(fcinfo);
    if (!same(b, exclusive, d, nullptr, nullptr))
        remember(b, exclusive, d, nullptr, nullptr, date_end(d, lower, exclusive));
    return id_bound_datum(fcinfo, e, lower, b);
}

Datum trunc_bound(FunctionCallInfo fcinfo, bool lower)
{
    for (int i : {0, 1, 3, 4})
        if (PG_ARGISNULL(i))
            PG_RETURN_NULL();
    text* unit = PG_GETARG_TEXT_PP(0);
    TimestampTz x = PG_GETARG_TIMESTAMPTZ(1);
    text* zone = PG_ARGISNULL(2) ? nullptr : PG_GETARG_TEXT_PP(2);
    Entry* e = entry_for(fcinfo, 3);
    bool exclusive = PG_GETARG_BOOL(4);
    LastBound* b = last_bound(fcinfo);
    if (!same(b, exclusive, x, unit, zone))
        remember(b, exclusive, x, unit, zone, trunc_end(unit, x, zone, lower, exclusive));
    return id_bound_datum(fcinfo, e, lower, b);
}

// The comparison a predicate makes of the time's date (truncated time) with its value, as the
// planner passes it to the _exact functions: -2 <, -1 <=, 0 =, 1 >=, 2 >.
int checked_comparison(int32 cmp)
{
    if (cmp < -2 || cmp > 2)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("invalid comparison %d", cmp),
                        errdetail("The comparison is -2 (<), -1 (<=), 0 (=), 1 (>=) or 2 (>).")));
    return cmp;
}

// Whether the ids between the bounds of the predicate (both for =) are exactly the ones it
// selects: then the planner's guard need not evaluate it row by row.
template <class EndOf>
bool exact(int cmp, EndOf end_of)
{
    bool exact = true;
    if (cmp >= 0)
        exact = end_of(true, cmp == 2).exact;
    if (exact && cmp <= 0)
        exact = end_of(false, cmp == -2).exact;
    return exact;
}

Datum date_exact(FunctionCallInfo fcinfo)
{
    DateADT d = PG_GETARG_DATEADT(0);
    int cmp = checked_comparison(PG_GETARG_INT32(1));
    LastBound* b = last_bound(fcinfo);
    if (!same(b, cmp, d, nullptr, nullptr))
        remember(b, cmp, d, nullptr, nullptr,
                 {0, exact(cmp, [&](bool lower, bool exclusive) { return date_end(d, lower, exclusive); })});
    PG_RETURN_BOOL(b->end.exact);
}

Datum trunc_exact(FunctionCallInfo fcinfo)
{
    for (int i : {0, 1, 3})
        if (PG_ARGISNULL(i))
            PG_RETURN_NULL();
    text* unit = PG_GETARG_TEXT_PP(0);
    TimestampTz x = PG_GETARG_TIMESTAMPTZ(1);
    text* zone = PG_ARGISNULL(2) ? nullptr : PG_GETARG_TEXT_PP(2);
    int cmp = checked_comparison(PG_GETARG_INT32(3));
    LastBound* b = last_bound(fcinfo);
    if (!same(b, cmp, x, unit, zone))
        remember(b, cmp, x, unit, zone, {0, exact(cmp, [&](bool lower, bool exclusive) {
                                             return trunc_end(unit, x, zone, lower, exclusive);
                                         })});
    PG_RETURN_BOOL(b->end.exact);
}

// The value a date or timestamp compares with a timestamptz as (date2timestamptz_opt_overflow
// and timestamp2timestamptz_opt_overflow, which PostgreSQL's cross-type comparisons call).
TimestampTz compared(TimestampTz ts, int overflow)
{
    return overflow > 0 ? DT_NOEND : overflow < 0 ? DT_NOBEGIN : ts;
}

} // namespace

TruncUnit snowflake::trunc_unit_of(text* unit)
{
    char* lower = downcase_truncate_identifier(VARDATA_ANY(unit), VARSIZE_ANY_EXHDR(unit), false);
    int val;
    if (DecodeUnits(0, lower, &val) != UNITS)
        return TruncUnit::None;
    switch (val) {
    case DTK_MICROSEC:
        return TruncUnit::Microsecond;
    case DTK_MILLISEC:
        return TruncUnit::Millisecond;
    case DTK_SECOND:
        return TruncUnit::Second;
    case DTK_MINUTE:
        return TruncUnit::Minute;
    case DTK_HOUR:
        return TruncUnit::Hour;
    case DTK_DAY:
        return TruncUnit::Day;
    case DTK_WEEK:
        return TruncUnit::Week;
    case DTK_MONTH:
        return TruncUnit::Month;
    case DTK_QUARTER:
        return TruncUnit::Quarter;
    case DTK_YEAR:
        return TruncUnit::Year;
    default:
        return TruncUnit::None;
    }
}

int64 snowflake::trunc_unit_us(TruncUnit unit)
{
    switch (unit) {
    case TruncUnit::Microsecond:
        return 1;
    case TruncUnit::Millisecond:
        return 1000;
    case TruncUnit::Second:
        return USECS_PER_SEC;
    case TruncUnit::Minute:
        return USECS_PER_MINUTE;
    case TruncUnit::Hour:
        return USECS_PER_HOUR;
    default:
        return 0;
    }
}

extern "C" {

Datum idseq_compare_as_timestamptz_date(PG_FUNCTION_ARGS)
{
    int overflow;
    TimestampTz ts = date2timestamptz_opt_overflow(PG_GETARG_DATEADT(0), &overflow);
    PG_RETURN_TIMESTAMPTZ(compared(ts, overflow));
}

Datum idseq_compare_as_timestamptz_timestamp(PG_FUNCTION_ARGS)
{
    int overflow;
    TimestampTz ts = timestamp2timestamptz_opt_overflow(PG_GETARG_TIMESTAMP(0), &overflow);
    PG_RETURN_TIMESTAMPTZ(compared(ts, overflow));
}

Datum idseq_snowflake_date_lower_id(PG_FUNCTION_ARGS) { return date_bound(fcinfo, true); }

Datum idseq_snowflake_date_upper_id(PG_FUNCTION_ARGS) { return date_bound(fcinfo, false); }

Datum idseq_snowflake_trunc_lower_id(PG_FUNCTION_ARGS) { return trunc_bound(fcinfo, true); }

Datum idseq_snowflake_trunc_upper_id(PG_FUNCTION_ARGS) { return trunc_bound(fcinfo, false); }

Datum idseq_snowflake_date_exact(PG_FUNCTION_ARGS) { return date_exact(fcinfo); }

Datum idseq_snowflake_trunc_exact(PG_FUNCTION_ARGS) { return trunc_exact(fcinfo); }

} // extern "C"
