#include "sequence_block.h"

#include "error.h"

#include <string>

namespace idseq::block {

namespace {
__extension__ typedef __int128 i128; // __extension__: no -Wpedantic warning
}

void check_size(int64_t n)
{
    if (n < 1)
        fail(ErrorKind::InvalidParameter, "invalid block size: " + std::to_string(n),
             "A block holds at least one value.");
}

Span next_span(int64_t last_value, bool is_called, int64_t n, int64_t hi) noexcept
{
    Span s{false, 0, 0, 0};
    // In 128 bits: last_value + 1 and first + n - 1 may pass the largest bigint.
    const i128 first = (i128) last_value + (is_called ? 1 : 0);
    const i128 left = first > hi ? 0 : (i128) hi - first + 1;
    s.left = left > std::numeric_limits<int64_t>::max() ? std::numeric_limits<int64_t>::max() : (int64_t) left;
    if (n < 1 || left < n)
        return s;
    s.fits = true;
    s.first = (int64_t) first;
    s.last = (int64_t) (first + n - 1);
    return s;
}

} // namespace idseq::block
