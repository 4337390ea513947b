// Snowflake ids as RFC 9562 version 7 UUIDs, the UUIDv7 generator's layout, and the 128-bit
// text form of UUIDs in a charset (ULID's canonical text in crockford32).
//
// A version 7 UUID is, most significant bit first: unix_ts_ms (48 bits), ver (4 bits, 0111),
// rand_a (12 bits), var (2 bits, 10), rand_b (62 bits). snowflake_uuid fills it from an id of
// a time-first layout (its time field is the most significant field): the Unix milliseconds
// of the id's time in unix_ts_ms; then, as one 74-bit stream over rand_a and rand_b from
// their top, the sub-millisecond part of the id's time (12 bits, RFC 9562 section 6.2
// method 3: the fraction of the millisecond times 4096, rounded down) when the layout's
// times are not all whole milliseconds, then the id's bits below its time field, in order;
// the bits left over are 0. Times, and the fields below them, order the same way in both,
// so the map preserves order, and each step is invertible, so it is lossless.
#pragma once
#include "cpp_only.h"

#include "charset.h"
#include "display_codec.h"
#include "snowflake.h"

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

namespace idseq {

using Uuid = std::array<uint8_t, 16>; // network byte order, as PostgreSQL's pg_uuid_t

constexpr int kUuidSubMsBits = 12; // RFC 9562 method 3 in rand_a
constexpr int kUuidFreeBits = 74;  // rand_a (12) + rand_b (62)

// (time_first() is declared in snowflake.h.)
// Throws Error(InvalidParameter) naming the layout when it is not time-first.
void require_time_first(const Layout& layout);
// 0 when every time of the layout is a whole millisecond (epoch and unit in whole
// milliseconds), else kUuidSubMsBits.
int uuid_sub_ms_bits(const Layout& layout);

// RFC 9562 method 3: the fraction of a millisecond (0 .. 999 microseconds) as 12 bits, and
// back. Every 12-bit value is the image of at most one fraction; sub_ms_from_bits returns -1
// for a value that is the image of none.
int sub_ms_to_bits(int64_t us_in_ms);
int64_t sub_ms_from_bits(int bits);

// The UUID of an id: lossless and order-preserving within a layout. Throws
// Error(InvalidParameter) for a layout that is not time-first; Error(OutOfRange) for an id
// outside the layout, or an id whose time is before 1970-01-01 or past the 48-bit
// millisecond range (year 10889), which unix_ts_ms cannot hold.
Uuid id_to_uuid(const Layout& layout, int64_t id);
// The exact inverse. Throws Error(InvalidParameter) for a layout that is not time-first, and
// for a UUID that id_to_uuid gives for no id of the layout (another version or variant, a
// time between the layout's units or outside its range, a sub-millisecond part no
// microsecond gives, a field too wide, a bit set past the id's bits).
int64_t uuid_to_id(const Layout& layout, const Uuid& u);

// The smallest version 7 UUID of ts_us's millisecond: every bit after the variant 0. Throws
// Error(OutOfRange) for a time before 1970-01-01 or past the 48-bit millisecond range.
Uuid uuidv7_bound(int64_t ts_us);

// The layout behind idseq_uuidv7(): 48-bit Unix milliseconds and a 12-bit counter
// ("time:48,seq:12", epoch 1970-01-01, 1 ms). Its ids map to UUIDs with uuidv7_from_id.
const Layout& uuidv7_layout();
// The UUID of one of its ids: unix_ts_ms = time, rand_a = the counter, rand_b = the low 62
// bits of random64. Two ids compare as their UUIDs do.
Uuid uuidv7_from_id(int64_t id, uint64_t random64);

// ---- 128-bit text ---------------------------------------------------------------------------

// Symbols that hold every 128-bit value in base `base` (26 for base 32).
int uuid_code_width(int base);
// The 128-bit value of u in the charset, most significant digit first, left-padded with the
// zero symbol to uuid_code_width(base).
std::string encode_uuid(const Charset& cs, const Uuid& u);
std::string encode_uuid(const CodecTable& cs, const Uuid& u);
// The exact inverse: exactly uuid_code_width(base) symbols (case-insensitive charsets read
// either case, crockford32 its aliases). Throws Error(Syntax) for a symbol outside the
// charset or a code of another length, Error(OutOfRange) for a value above 2^128 - 1.
Uuid decode_uuid(const Charset& cs, std::string_view code);
Uuid decode_uuid(const CodecTable& cs, std::string_view code);

} // namespace idseq
