#include "uuidv7.h"

#include "quoted_text.h"

#include <cstdio>

namespace idseq {

namespace {

__extension__ typedef unsigned __int128 u128; // __extension__: no -Wpedantic warning

constexpr uint64_t kOnes62 = (uint64_t{1} << 62) - 1;
constexpr int64_t kMaxUnixMs = (int64_t{1} << 48) - 1;

// Quoted as every core error quotes text: control characters and invalid bytes as \xNN.
std::string quoted(std::string_view s) { return "\"" + shown(s) + "\""; }

u128 to_u128(const Uuid& u)
{
    u128 v = 0;
    for (uint8_t b : u)
        v = (v << 8) | b;
    return v;
}

Uuid from_u128(u128 v)
{
    Uuid u{};
    for (int i = 15; i >= 0; i--) {
        u[static_cast<size_t>(i)] = static_cast<uint8_t>(v & 0xff);
        v >>= 8;
    }
    return u;
}

// A version 7 UUID from its 48-bit millisecond and the 74 bits of rand_a and rand_b.
Uuid make_v7(int64_t ms, u128 stream74)
{
    const uint64_t hi = (static_cast<uint64_t>(ms) << 16) | 0x7000 | static_cast<uint64_t>(stream74 >> 62);
    const uint64_t lo = (uint64_t{1} << 63) | (static_cast<uint64_t>(stream74) & kOnes62);
    return from_u128((u128{hi} << 64) | lo);
}

std::string format_uuid(const Uuid& u)
{
    char buf[40];
    char* p = buf;
    for (size_t i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        p += std::snprintf(p, 3, "%02x", u[i]);
    }
    return std::string(buf, static_cast<size_t>(p - buf));
}

// The millisecond of a time that unix_ts_ms can hold, and the microseconds into it.
void split_ms(int64_t ts_us, int64_t& ms, int64_t& us_in_ms)
{
    if (ts_us < 0 || ts_us / 1000 > kMaxUnixMs)
        fail(ErrorKind::OutOfRange, "timestamp " + quoted(format_timestamp_us(ts_us)) + " is out of range for a version 7 UUID",
             "A version 7 UUID holds times from 1970-01-01 00:00:00+00 to " + format_timestamp_us(kMaxUnixMs * 1000 + 999) +
                 " (48 bits of Unix milliseconds).");
    ms = ts_us / 1000;
    us_in_ms = ts_us % 1000;
}

[[noreturn]] void not_of_layout(const Layout& layout, const Uuid& u, const std::string& why)
{
    fail(ErrorKind::InvalidParameter,
         "uuid " + quoted(format_uuid(u)) + " is not the UUID of an id of snowflake layout " + quoted(layout.name), why,
         "Convert a UUID back with the layout that snowflake_uuid() made it with.");
}

} // namespace

void require_time_first(const Layout& layout)
{
    if (!time_first(layout))
        fail(ErrorKind::InvalidParameter, "snowflake layout " + quoted(layout.name) + " is not time-first",
             "Its fields are " + format_fields(layout) +
                 "; only a layout whose time field is its most significant field maps to version 7 UUIDs in order.",
             "Use a layout whose fields start with time.");
}

int uuid_sub_ms_bits(const Layout& layout)
{
    return (layout.epoch_us % 1000 == 0 && layout.unit_us % 1000 == 0) ? 0 : kUuidSubMsBits;
}

int sub_ms_to_bits(int64_t us_in_ms) { return static_cast<int>(us_in_ms * 4096 / 1000); }

int64_t sub_ms_from_bits(int bits)
{
    // the one fraction f with floor(f * 4096 / 1000) = bits, if any: the smallest f with
    // f * 4096 >= bits * 1000
    const int64_t f = (int64_t{bits} * 1000 + 4095) / 4096;
    return (f < 1000 && sub_ms_to_bits(f) == bits) ? f : -1;
}

Uuid id_to_uuid(const Layout& layout, int64_t id)
{
    require_time_first(layout);
    const Unpacked u = unpack(layout, id); // the range errors of ids
    int64_t ms, us_in_ms;
    split_ms(u.ts_us, ms, us_in_ms);
    const int s = uuid_sub_ms_bits(layout);
    const int r = layout[Field::Time].shift; // the bits below the time field
    const u128 low = static_cast<uint64_t>(id) & static_cast<uint64_t>(Layout::ones(r));
    u128 stream = low << (kUuidFreeBits - s - r);
    if (s)
        stream |= u128(static_cast<uint64_t>(sub_ms_to_bits(us_in_ms))) << (kUuidFreeBits - s);
    return make_v7(ms, stream);
}

int64_t uuid_to_id(const Layout& layout, const Uuid& uuid)
{
    require_time_first(layout);
    const u128 v = to_u128(uuid);
    const uint64_t hi = static_cast<uint64_t>(v >> 64), lo = static_cast<uint64_t>(v);
    if (((hi >> 12) & 0xf) != 7 || (lo >> 62) != 2)
        not_of_layout(layout, uuid, "It is not an RFC 9562 version 7 UUID (version 7, variant 10).");
    const int64_t ms = static_cast<int64_t>(hi >> 16);
    const u128 stream = (u128{hi & 0xfff} << 62) | (lo & kOnes62);
    const int s = uuid_sub_ms_bits(layout);
    const int r = layout[Field::Time].shift;
    const int spare = kUuidFreeBits - s - r;
    if (spare > 0 && (stream & ((u128{1} << spare) - 1)) != 0)
        not_of_layout(layout, uuid,
                      "Its last " + std::to_string(spare) + " bits are not all 0, and the layout's ids leave them 0.");
    int64_t us_in_ms = 0;
    if (s) {
        us_in_ms = sub_ms_from_bits(static_cast<int>(stream >> (kUuidFreeBits - s)));
        if (us_in_ms < 0)
            not_of_layout(layout, uuid, "Its sub-millisecond bits stand for no whole microsecond.");
    }
    const int64_t low = static_cast<int64_t>(static_cast<uint64_t>(stream >> spare) & static_cast<uint64_t>(Layout::ones(r)));
    const int64_t ts = ms * 1000 + us_in_ms; // < 2^48 * 1000: no overflow
    const int64_t unit = unit_of(layout, ts);
    if (unit < 0 || unit > layout.max_value(Field::Time))
        not_of_layout(layout, uuid, "Its time " + format_timestamp_us(ts) + " is outside the layout's range. " +
                                        time_range_detail(layout));
    if (unit_start_us(layout, unit) != ts)
        not_of_layout(layout, uuid, "Its time " + format_timestamp_us(ts) + " is not the start of one of the layout's time units.");
    return (unit << r) | low;
}

Uuid uuidv7_bound(int64_t ts_us)
{
    int64_t ms, us_in_ms;
    split_ms(ts_us, ms, us_in_ms);
    return make_v7(ms, 0);
}

const Layout& uuidv7_layout()
{
    static const Layout layout = parse_layout("uuidv7", 0, "time:48,seq:12", 1000, true);
    return layout;
}

Uuid uuidv7_from_id(int64_t id, uint64_t random64)
{
    const u128 stream = (u128{static_cast<uint64_t>(id) & 0xfff} << 62) | (random64 & kOnes62);
    return make_v7(id >> 12, stream);
}

// ---- 128-bit text ---------------------------------------------------------------------------

int uuid_code_width(int base)
{
    u128 v = ~u128{0};
    int n = 0;
    do {
        v /= static_cast<unsigned>(base);
        n++;
    } while (v != 0);
    return n;
}

namespace {

template <class Set>
std::string encode_uuid_impl(const Set& cs, const Uuid& u)
{
    const unsigned base = static_cast<unsigned>(cs.base());
    const int width = uuid_code_width(cs.base());
    int digits[128];
    u128 v = to_u128(u);
    for (int i = width - 1; i >= 0; i--) {
        digits[i] = static_cast<int>(v % base);
        v /= base;
    }
    std::string out;
    for (int i = 0; i < width; i++)
        out += cs.symbol(digits[i]);
    return out;
}

template <class Set>
Uuid decode_uuid_impl(const Set& cs, std::string_view code)
{
    const int width = uuid_code_width(cs.base());
    const size_t max_bytes = static_cast<size_t>(width) * 4;
    auto wrong_length = [&](const std::string& count) {
        fail(ErrorKind::Syntax, "invalid code " + quoted(shown(code)) + " for a uuid",
             "A uuid's code in charset " + quoted(cs.name()) + " has exactly " + std::to_string(width) +
                 " symbols; this one has " + count + ".");
    };
    if (code.size() > max_bytes)
        wrong_length(std::to_string(code.size()) + " bytes");
    const char* p = code.data();
    const char* end = p + code.size();
    u128 v = 0;
    bool overflow = false;
    int n = 0;
    const u128 base = static_cast<unsigned>(cs.base());
    while (p < end) {
        const char* start = p;
        const int d = cs.read_digit(p, end);
        n++;
        if (d < 0)
            fail(ErrorKind::Syntax,
                 "invalid symbol \"" + describe_char({start, static_cast<size_t>(p - start)}) + "\" at position " +
                     std::to_string(n) + " of code " + quoted(shown(code)),
                 "Charset " + quoted(cs.name()) + " consists of the symbols \"" + std::string(cs.symbols()) + "\".",
                 "Decode with the charset that the code was encoded with.");
        overflow |= v > (~u128{0} - static_cast<unsigned>(d)) / base;
        v = v * base + static_cast<unsigned>(d);
    }
    if (n != width)
        wrong_length(std::to_string(n));
    if (overflow)
        fail(ErrorKind::OutOfRange, "code " + quoted(shown(code)) + " is out of range for type uuid",
             "Its value exceeds 2^128 - 1.");
    return from_u128(v);
}

} // namespace

std::string encode_uuid(const Charset& cs, const Uuid& u) { return encode_uuid_impl(cs, u); }
std::string encode_uuid(const CodecTable& cs, const Uuid& u) { return encode_uuid_impl(cs, u); }
Uuid decode_uuid(const Charset& cs, std::string_view code) { return decode_uuid_impl(cs, code); }
Uuid decode_uuid(const CodecTable& cs, std::string_view code) { return decode_uuid_impl(cs, code); }

} // namespace idseq
