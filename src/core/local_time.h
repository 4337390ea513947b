// Local time: which instants have a local time at or past a given one, in a time zone given
// as its spans of constant UTC offset. For the bounds of time predicates that read an id's
// time in local time (snowflake_timestamp(id)::date, date_trunc('day', ...)), planned by
// src/pg/sf_time_quals.cpp and computed by src/pg/sf_local_time.cpp, which
// reads the spans from PostgreSQL's time zone code.
//
// An instant t (microseconds) in a span has the local time t + offset_us. Local time need
// not grow with t: where a zone sets its clocks back, local times repeat, and where the
// change crosses midnight (America/St_Johns until 2011 went from 00:00:59 back to 23:01 of
// the day before), a local date comes back after the next one began. So the instants whose
// local time is at or past a given one are not always one range; these functions give the
// least (greatest) instant of that set, which is exact for its first (last) instant and a
// superset range otherwise. The planner keeps the predicate beside the range, so the rows
// stay exact either way.
#pragma once
#include "cpp_only.h"

#include <cstddef>
#include <cstdint>

namespace idseq {

// [start, end) of instants over which a zone's UTC offset is offset_us.
struct ZoneSpan {
    int64_t start;
    int64_t end;
    int64_t offset_us;
};

// Longer than any UTC offset: PostgreSQL accepts offsets up to 167:59:59, the time zone
// database's zones stay under 16 hours. An instant more than this before (after) a local
// time has an earlier (later) local time, whatever its offset.
constexpr int64_t kZoneWindowUs = int64_t{7} * 24 * 3600 * 1000000;

// Both take the zone's spans over [local - kZoneWindowUs, local + kZoneWindowUs]: in order,
// each ending where the next starts, the first starting at or before the window, the last
// ending after it, every offset shorter than kZoneWindowUs. Spans that are not so, or a
// local time within 2 * kZoneWindowUs of the int64 range's ends, give the window's edge,
// which is a bound for every zone whose offsets are shorter than kZoneWindowUs.

// The least instant whose local time is >= local. closed: every later instant's local time
// is >= local too (the instants are one range, from there on).
int64_t first_instant_from_local(const ZoneSpan* spans, size_t n, int64_t local, bool& closed);
// The greatest instant whose local time is < local. closed: every earlier instant's local
// time is < local too.
int64_t last_instant_before_local(const ZoneSpan* spans, size_t n, int64_t local, bool& closed);

} // namespace idseq
