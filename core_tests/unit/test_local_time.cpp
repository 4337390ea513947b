// Local time over a zone's spans (src/core/local_time.h): the least instant whose local time
// is at or past a given one, and the greatest before it, against the offsets themselves at
// every instant where the answer can change, on zones built like the time zone database's
// hard cases: DST both ways, a 30-minute DST (Australia/Lord_Howe), a 45-minute offset
// (Asia/Kathmandu), clocks set back across midnight (America/St_Johns until 2011), a skipped
// day (Pacific/Apia in 2011), a repeated one, and PostgreSQL's largest offsets.
#include "local_time.h"

#include "test_util.h"

#include <algorithm>
#include <limits>
#include <random>
#include <vector>

using namespace idseq;

namespace {

constexpr int64_t kMin = 60 * int64_t{1000000};
constexpr int64_t kHour = 60 * kMin;
constexpr int64_t kDay = 24 * kHour;
constexpr int64_t kFar = int64_t{1} << 60;

// A zone: its offset before the first change, and its changes (instant, offset from then on).
struct Zone {
    int64_t initial;
    std::vector<std::pair<int64_t, int64_t>> changes;

    int64_t offset_at(int64_t t) const
    {
        int64_t o = initial;
        for (const auto& c : changes)
            if (t >= c.first)
                o = c.second;
        return o;
    }
    std::vector<ZoneSpan> spans() const
    {
        std::vector<ZoneSpan> out;
        int64_t start = -kFar, o = initial;
        for (const auto& c : changes) {
            out.push_back({start, c.first, o});
            start = c.first;
            o = c.second;
        }
        out.push_back({start, kFar, o});
        return out;
    }
    bool at_or_past(int64_t t, int64_t local) const { return t + offset_at(t) >= local; }
};

// Every instant where the answer for local can change: the changes, the instants whose
// local time is local in each offset, the window's edges; each with its neighbours.
std::vector<int64_t> critical(const Zone& z, int64_t local)
{
    std::vector<int64_t> points = {local - kZoneWindowUs, local + kZoneWindowUs, local - z.initial};
    for (const auto& c : z.changes) {
        points.push_back(c.first);
        points.push_back(local - c.second);
    }
    std::vector<int64_t> out;
    for (int64_t p : points)
        for (int64_t d = -2; d <= 2; d++)
            out.push_back(p + d);
    return out;
}

// The bounds hold every instant that qualifies, and say "closed" exactly when every instant
// after the first (before the last) qualifies.
void check(const Zone& z, int64_t local)
{
    const std::vector<ZoneSpan> spans = z.spans();
    bool first_closed, last_closed;
    const int64_t first = first_instant_from_local(spans.data(), spans.size(), local, first_closed);
    const int64_t last = last_instant_before_local(spans.data(), spans.size(), local, last_closed);
    ASSERT_TRUE(z.at_or_past(first, local)) << "local " << local << " first " << first;
    ASSERT_FALSE(z.at_or_past(last, local)) << "local " << local << " last " << last;
    bool gap_after_first = false, gap_before_last = false;
    for (int64_t t : critical(z, local)) {
        if (t < first) {
            ASSERT_FALSE(z.at_or_past(t, local)) << "local " << local << " first " << first << " t " << t;
        }
        if (t > last) {
            ASSERT_TRUE(z.at_or_past(t, local)) << "local " << local << " last " << last << " t " << t;
        }
        gap_after_first |= t > first && !z.at_or_past(t, local);
        gap_before_last |= t < last && z.at_or_past(t, local);
    }
    ASSERT_EQ(first_closed, !gap_after_first) << "local " << local << " first " << first;
    ASSERT_EQ(last_closed, !gap_before_last) << "local " << local << " last " << last;
}

// Local midnights and the times around a zone's changes.
void check_around(const Zone& z)
{
    std::vector<int64_t> locals;
    for (int64_t d = -3; d <= 40; d++)
        locals.push_back(d * kDay);
    for (const auto& c : z.changes)
        for (int64_t o : {c.second, z.offset_at(c.first - 1)})
            for (int64_t d = -90; d <= 90; d++)
                locals.push_back(c.first + o + d * kMin);
    for (int64_t local : locals)
        check(z, local);
}

int64_t first_of(const ZoneSpan* spans, size_t n, int64_t local)
{
    bool closed;
    return first_instant_from_local(spans, n, local, closed);
}

int64_t last_of(const ZoneSpan* spans, size_t n, int64_t local)
{
    bool closed;
    return last_instant_before_local(spans, n, local, closed);
}

// Day 10 (from 0, a midnight UTC) at a UTC hour.
int64_t at(int64_t day, int64_t hour, int64_t minute = 0) { return day * kDay + hour * kHour + minute * kMin; }

} // namespace

TEST(LocalTime, FixedOffsetsAreExact)
{
    for (int64_t o : {int64_t{0}, 5 * kHour + 45 * kMin, -10 * kHour, 167 * kHour + 59 * kMin}) {
        Zone z{o, {}};
        check_around(z);
        const std::vector<ZoneSpan> s = z.spans();
        bool closed;
        EXPECT_EQ(first_instant_from_local(s.data(), s.size(), 10 * kDay, closed), 10 * kDay - o);
        EXPECT_TRUE(closed);
        EXPECT_EQ(last_instant_before_local(s.data(), s.size(), 10 * kDay, closed), 10 * kDay - o - 1);
        EXPECT_TRUE(closed);
    }
}

TEST(LocalTime, DaylightSavingTime)
{
    // Europe/Berlin: +1, +2 from day 5 01:00 UTC (02:00 local becomes 03:00), +1 from day 20
    // 01:00 UTC (03:00 local becomes 02:00 again).
    Zone berlin{kHour, {{at(5, 1), 2 * kHour}, {at(20, 1), kHour}}};
    check_around(berlin);
    const std::vector<ZoneSpan> s = berlin.spans();
    // 02:30 local on day 5 never happens: the first instant at or past it is the change.
    EXPECT_EQ(first_of(s.data(), s.size(), at(5, 2, 30)), at(5, 1));
    // 02:30 local on day 20 happens twice: the first is an hour before the change, and the
    // local times after it dip below 02:30 again.
    bool closed;
    EXPECT_EQ(first_instant_from_local(s.data(), s.size(), at(20, 2, 30), closed), at(20, 0, 30));
    EXPECT_FALSE(closed);
    EXPECT_EQ(last_of(s.data(), s.size(), at(20, 2, 30)), at(20, 1, 30) - 1);
    // midnights are one range of instants in Berlin
    EXPECT_EQ(first_instant_from_local(s.data(), s.size(), 20 * kDay, closed), at(19, 22));
    EXPECT_TRUE(closed);
    // Australia/Lord_Howe: +10:30, +11 in summer; Asia/Kathmandu's +5:45.
    check_around(Zone{10 * kHour + 30 * kMin, {{at(4, 15, 30), 11 * kHour}, {at(30, 15), 10 * kHour + 30 * kMin}}});
    check_around(Zone{5 * kHour + 30 * kMin, {{at(3, 18, 30), 5 * kHour + 45 * kMin}}});
}

TEST(LocalTime, ClocksSetBackAcrossMidnight)
{
    // America/St_Johns, November 2010: -2:30 until 00:01 local on day 7 (02:31 UTC), then
    // -3:30 (23:01 local on day 6). Local day 7 begins at 02:30 UTC, stops a minute later,
    // and begins again at 03:30 UTC.
    Zone st_johns{-2 * kHour - 30 * kMin, {{at(7, 2, 31), -3 * kHour - 30 * kMin}}};
    check_around(st_johns);
    const std::vector<ZoneSpan> s = st_johns.spans();
    EXPECT_EQ(first_of(s.data(), s.size(), 7 * kDay), at(7, 2, 30));
    EXPECT_EQ(last_of(s.data(), s.size(), 7 * kDay), at(7, 3, 30) - 1);
    // The instants of local day 7 (and of day 6) are not one range: the bounds hold them all
    // and say so.
    bool closed;
    first_instant_from_local(s.data(), s.size(), 7 * kDay, closed);
    EXPECT_FALSE(closed);
    last_instant_before_local(s.data(), s.size(), 7 * kDay, closed);
    EXPECT_FALSE(closed);
    first_instant_from_local(s.data(), s.size(), 8 * kDay, closed);
    EXPECT_TRUE(closed);
}

TEST(LocalTime, SkippedAndRepeatedDays)
{
    // Pacific/Apia, December 2011: -10 until day 30 10:00 UTC, then +14: local day 30 never
    // happens, day 31 begins at the change.
    Zone apia{-10 * kHour, {{at(30, 10), 14 * kHour}}};
    check_around(apia);
    const std::vector<ZoneSpan> s = apia.spans();
    EXPECT_EQ(first_of(s.data(), s.size(), 30 * kDay), at(30, 10));
    EXPECT_EQ(first_of(s.data(), s.size(), 31 * kDay), at(30, 10));
    EXPECT_EQ(last_of(s.data(), s.size(), 31 * kDay), at(30, 10) - 1);
    // The other way (Alaska in 1867): +14 until day 12 09:00 UTC, then -10; a day comes twice.
    check_around(Zone{14 * kHour, {{at(12, 9), -10 * kHour}}});
}

TEST(LocalTime, RandomZones)
{
    std::mt19937_64 rng(20261128);
    for (int z = 0; z < 300; z++) {
        Zone zone{int64_t(rng() % (30 * 4)) * 15 * kMin - 14 * kHour, {}};
        int64_t t = at(int64_t(rng() % 3), 0);
        for (int c = int(rng() % 6); c > 0; c--) {
            t += int64_t(rng() % (4 * kDay)) + 1;
            // offsets of whole 15 minutes within +-15 hours, or (rarely) PostgreSQL's largest
            int64_t o = rng() % 20 == 0 ? (rng() % 2 ? 1 : -1) * (167 * kHour + 59 * kMin)
                                         : int64_t(rng() % 121) * 15 * kMin - 15 * kHour;
            zone.changes.push_back({t, o});
        }
        check_around(zone);
        for (int i = 0; i < 50; i++)
            check(zone, int64_t(rng() % (30 * kDay)) - 5 * kDay);
    }
}

TEST(LocalTime, SpansNotCoveringTheWindowGiveItsEdges)
{
    const int64_t local = 10 * kDay;
    const std::vector<ZoneSpan> short_spans = {{local - kDay, local + kDay, 0}};
    EXPECT_EQ(first_of(short_spans.data(), 1, local), local - kZoneWindowUs);
    EXPECT_EQ(last_of(short_spans.data(), 1, local), local + kZoneWindowUs - 1);
    const std::vector<ZoneSpan> gap = {{-kFar, local, 0}, {local + 1, kFar, 0}};
    EXPECT_EQ(first_of(gap.data(), 2, local), local - kZoneWindowUs);
    const std::vector<ZoneSpan> huge = {{-kFar, kFar, kZoneWindowUs}};
    EXPECT_EQ(first_of(huge.data(), 1, local), local - kZoneWindowUs);
    EXPECT_EQ(first_of(nullptr, 0, local), local - kZoneWindowUs);
    // near the ends of int64 the edges saturate
    const std::vector<ZoneSpan> all = {{std::numeric_limits<int64_t>::min(), std::numeric_limits<int64_t>::max(), 0}};
    EXPECT_EQ(first_of(all.data(), 1, std::numeric_limits<int64_t>::min() + 5),
              std::numeric_limits<int64_t>::min());
    EXPECT_EQ(last_of(all.data(), 1, std::numeric_limits<int64_t>::max() - 5),
              std::numeric_limits<int64_t>::max());
}
