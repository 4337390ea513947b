// Blocks of consecutive values of an INCREMENT BY 1 sequence (nextval_block): where the next
// n values lie, given the sequence's page (last_value, is_called) and the largest value a
// block may hold. Plain arithmetic; the adapter reads and writes the page under its buffer
// lock (src/pg/seq_page.h) and raises the errors.
#pragma once
#include "cpp_only.h"

#include <cstdint>
#include <limits>

namespace idseq::block {

// A block is returned as int8range [first, last + 1), and an int8range cannot end after the
// largest bigint: the largest value a block may hold is one below it.
constexpr int64_t kLastBlockValue = std::numeric_limits<int64_t>::max() - 1;

// Throws Error(InvalidParameter, 22023) unless n >= 1.
void check_size(int64_t n);

struct Span {
    bool fits;     // all n values lie at or below hi: [first, last] is the block
    int64_t first; // the value nextval would return next
    int64_t last;  // first + n - 1 (when fits)
    int64_t left;  // how many values the sequence still has up to hi (0 when none)
};

// The next n values (n >= 1) of a sequence whose page holds last_value and is_called
// (is_called false: last_value itself is the next value, as after CREATE or RESTART), up to
// hi, the largest value the block may hold (the sequence's MAXVALUE, capped at
// kLastBlockValue by the caller). Values of the sequence beyond last_value have never been
// handed out: sessions' cached values lie at or below it.
Span next_span(int64_t last_value, bool is_called, int64_t n, int64_t hi) noexcept;

} // namespace idseq::block
