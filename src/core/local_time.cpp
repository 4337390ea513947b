#include "local_time.h"

#include <algorithm>
#include <limits>

namespace idseq {

namespace {

constexpr int64_t kMin = std::numeric_limits<int64_t>::min();
constexpr int64_t kMax = std::numeric_limits<int64_t>::max();

int64_t saturating_add(int64_t a, int64_t b)
{
    int64_t r;
    if (__builtin_add_overflow(a, b, &r))
        return b > 0 ? kMax : kMin;
    return r;
}

// Whether spans cover [local - W, local + W] as the header says, local far enough from the
// ends of int64 that local +- 2W and every local - offset are exact.
bool covers(const ZoneSpan* spans, size_t n, int64_t local)
{
    if (n == 0 || local < kMin + 2 * kZoneWindowUs || local > kMax - 2 * kZoneWindowUs)
        return false;
    if (spans[0].start > local - kZoneWindowUs || spans[n - 1].end <= local + kZoneWindowUs)
        return false;
    for (size_t i = 0; i < n; i++) {
        if (spans[i].start >= spans[i].end || spans[i].offset_us <= -kZoneWindowUs || spans[i].offset_us >= kZoneWindowUs)
            return false;
        if (i + 1 < n && spans[i].end != spans[i + 1].start)
            return false;
    }
    return true;
}

} // namespace

// An instant before local - W has a local time before local (every offset is shorter than
// W); one at or after local + W has one at or after it. In a span, the instants t >= local -
// offset qualify: from max(start, local - offset) to the span's end, if that is not empty.
// The spans are in order, so the first span with such instants holds the least of them. The
// instants after it all qualify when every later span that starts inside the window starts
// at a local time >= local.
int64_t first_instant_from_local(const ZoneSpan* spans, size_t n, int64_t local, bool& closed)
{
    closed = false;
    const int64_t from = saturating_add(local, -kZoneWindowUs);
    if (!covers(spans, n, local))
        return from;
    for (size_t i = 0; i < n; i++) {
        const int64_t start = std::max(spans[i].start, from);
        const int64_t first = std::max(start, local - spans[i].offset_us);
        if (first < spans[i].end) {
            closed = true;
            for (size_t j = i + 1; j < n && spans[j].start < local + kZoneWindowUs; j++)
                if (spans[j].start + spans[j].offset_us < local)
                    closed = false;
            return first;
        }
    }
    return from; // not reached: the last span reaches past local + W, where every instant qualifies
}

// Every instant before local - W qualifies, none at or after local + W does. In a span, the
// instants t < local - offset qualify: the greatest is min(end, local - offset) - 1, if that
// is in the span. The greatest over the spans is the answer. The instants before it all
// qualify when, in every span that starts at or before it, the last of them up to it does.
int64_t last_instant_before_local(const ZoneSpan* spans, size_t n, int64_t local, bool& closed)
{
    closed = false;
    if (!covers(spans, n, local))
        return saturating_add(local, kZoneWindowUs - 1);
    const int64_t from = local - kZoneWindowUs, to = local + kZoneWindowUs;
    int64_t last = from - 1;
    for (size_t i = 0; i < n; i++) {
        const int64_t start = std::max(spans[i].start, from);
        const int64_t end = std::min(spans[i].end, to);
        const int64_t past = std::min(end, local - spans[i].offset_us);
        if (past > start)
            last = std::max(last, past - 1);
    }
    closed = true;
    for (size_t i = 0; i < n && spans[i].start <= last; i++)
        if (spans[i].end > from && std::min(spans[i].end - 1, last) + spans[i].offset_us >= local)
            closed = false;
    return last;
}

} // namespace idseq
