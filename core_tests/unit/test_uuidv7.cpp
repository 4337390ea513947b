// Snowflake ids as version 7 UUIDs, the UUIDv7 layout, and the 128-bit text (ULID).
#include "charset.h"
#include "display_codec.h"
#include "snowflake.h"
#include "uuidv7.h"
#include "chacha20.h"

#include "test_util.h"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <random>
#include <string>
#include <vector>

using namespace idseq;
using idseq::unit::kind_of;

namespace {

constexpr int64_t kMs = 1000;

__extension__ typedef unsigned __int128 u128;

u128 value_of(const Uuid& u)
{
    u128 v = 0;
    for (uint8_t b : u)
        v = (v << 8) | b;
    return v;
}

Uuid uuid_of(u128 v)
{
    Uuid u{};
    for (int i = 15; i >= 0; i--, v >>= 8)
        u[static_cast<size_t>(i)] = static_cast<uint8_t>(v);
    return u;
}

Uuid parse_hex(const std::string& s)
{
    u128 v = 0;
    for (char c : s)
        if (c != '-')
            v = (v << 4) | static_cast<unsigned>(std::stoi(std::string(1, c), nullptr, 16));
    return uuid_of(v);
}

// The time-first layouts: every built-in one, and custom ones with a sub-millisecond unit, a
// unit that is not a whole number of milliseconds, an epoch off the millisecond, a 62-bit
// tail, no field at all below time.
std::vector<Layout> time_first_layouts()
{
    std::vector<Layout> v = builtin_layouts();
    v.push_back(parse_layout("micro", 1600000000000000, "time:50,seq:13", 1));
    v.push_back(parse_layout("tenth", 1600000000000000, "time:44,node:6,seq:12", 100));
    v.push_back(parse_layout("odd_unit", 1600000000000000, "time:40,node:4,rand:7", 1500));
    v.push_back(parse_layout("odd_epoch", 1600000000000123, "time:41,seq:22", kMs));
    v.push_back(parse_layout("tail62", 1600000000000000, "time:1,rand:62", 3600 * 1000 * kMs));
    v.push_back(parse_layout("only_time", 0, "time:40", 10 * kMs));
    v.push_back(uuidv7_layout());
    return v;
}

// An id of the layout whose time is within the 48-bit millisecond range.
int64_t random_id(const Layout& l, std::mt19937_64& rng)
{
    const int64_t last_ms = (int64_t{1} << 48) - 1;
    int64_t max_unit = l.max_value(Field::Time);
    const int64_t by_ms = (last_ms * kMs - l.epoch_us) / l.unit_us;
    if (by_ms < max_unit)
        max_unit = by_ms;
    const int r = l[Field::Time].shift;
    const int64_t unit = static_cast<int64_t>(rng() % static_cast<uint64_t>(max_unit + 1));
    const int64_t low = static_cast<int64_t>(rng() & static_cast<uint64_t>(Layout::ones(r)));
    return (unit << r) | low;
}

} // namespace

TEST(Uuid, TimeFirstLayouts)
{
    for (const Layout& l : builtin_layouts())
        EXPECT_TRUE(time_first(l)) << l.name;
    const Layout node_first = parse_layout("node_first", 0, "node:10,time:41,seq:12", kMs);
    EXPECT_FALSE(time_first(node_first));
    EXPECT_EQ(kind_of([&] { id_to_uuid(node_first, 1); }), ErrorKind::InvalidParameter);
    EXPECT_EQ(kind_of([&] { uuid_to_id(node_first, Uuid{}); }), ErrorKind::InvalidParameter);
}

TEST(Uuid, SubMillisecondBitsFollowRfc9562Method3)
{
    // floor(fraction * 4096): 0 us -> 0, 1 us -> 4, 999 us -> 4091, and back exactly
    EXPECT_EQ(sub_ms_to_bits(0), 0);
    EXPECT_EQ(sub_ms_to_bits(1), 4);
    EXPECT_EQ(sub_ms_to_bits(500), 2048);
    EXPECT_EQ(sub_ms_to_bits(999), 4091);
    int images = 0;
    for (int us = 0; us < 1000; us++) {
        EXPECT_EQ(sub_ms_from_bits(sub_ms_to_bits(us)), us);
        if (us) {
            EXPECT_GT(sub_ms_to_bits(us), sub_ms_to_bits(us - 1));
        }
    }
    for (int b = 0; b < 4096; b++)
        images += sub_ms_from_bits(b) >= 0;
    EXPECT_EQ(images, 1000); // the other 3096 values are refused
    EXPECT_EQ(uuid_sub_ms_bits(*builtin_layout("snowflake")), 0);
    EXPECT_EQ(uuid_sub_ms_bits(*builtin_layout("sonyflake")), 0);
    EXPECT_EQ(uuid_sub_ms_bits(parse_layout("x", 0, "time:50", 1)), 12);
    EXPECT_EQ(uuid_sub_ms_bits(parse_layout("x", 1, "time:50", kMs)), 12);
}

TEST(Uuid, KnownAnswers)
{
    const Layout& sf = *builtin_layout("snowflake");
    // Twitter's epoch + 1 ms, node 1, seq 2: unix ms 1288834974658 = 0x12c148d03c2
    const int64_t id = pack(sf, (1288834974657 + 1) * kMs, 1, 2, 0);
    const Uuid u = id_to_uuid(sf, id);
    // rand_a/rand_b from the top: node (10 bits) 0000000001, seq (12 bits) 000000000010
    EXPECT_EQ(value_of(u), value_of(parse_hex("012c148d-03c2-7004-8020-000000000000")));
    EXPECT_EQ(uuid_to_id(sf, u), id);
    // A microsecond layout: 0.5 ms into the millisecond -> rand_a 0x800
    const Layout micro = parse_layout("micro", 0, "time:50", 1);
    EXPECT_EQ(value_of(id_to_uuid(micro, 1500)), value_of(parse_hex("00000000-0001-7800-8000-000000000000")));
    EXPECT_EQ(value_of(uuidv7_bound(1500)), value_of(parse_hex("00000000-0001-7000-8000-000000000000")));
    EXPECT_EQ(kind_of([] { uuidv7_bound(-1); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([] { uuidv7_bound((int64_t{1} << 48) * kMs); }), ErrorKind::OutOfRange);
    // the UUIDv7 layout: ms 1, counter 5, random bits
    EXPECT_EQ(value_of(uuidv7_from_id((1 << 12) | 5, ~uint64_t{0})),
              value_of(parse_hex("00000000-0001-7005-bfff-ffffffffffff")));
}

// Property test over random ids of every time-first layout: the round trip, the order, the
// version and variant, and uuid_extract_timestamp's reading (the top 48 bits) equal to the
// id's time truncated to the millisecond.
TEST(Uuid, RoundTripAndOrderOverRandomIds)
{
    std::mt19937_64 rng(19);
    for (const Layout& l : time_first_layouts()) {
        std::vector<std::pair<int64_t, u128>> seen;
        for (int i = 0; i < 4000; i++) {
            int64_t id = random_id(l, rng);
            if (i % 4 == 1 && !seen.empty()) // neighbours: same unit, next field value
                id = std::min(seen.back().first + 1, l.max_id());
            const Uuid u = id_to_uuid(l, id);
            const u128 v = value_of(u);
            ASSERT_EQ((v >> 76) & 0xf, 7u) << l.name;
            ASSERT_EQ((v >> 62) & 3, 2u) << l.name;
            ASSERT_EQ(uuid_to_id(l, u), id) << l.name << " " << id;
            const int64_t ts = unpack(l, id).ts_us;
            ASSERT_EQ(static_cast<int64_t>(v >> 80), ts / kMs) << l.name;
            seen.emplace_back(id, v);
        }
        for (size_t i = 0; i + 1 < seen.size(); i++)
            for (size_t j : {i + 1, (i * 7919) % seen.size()})
                ASSERT_EQ(seen[i].first < seen[j].first, seen[i].second < seen[j].second) << l.name;
    }
}

// Every UUID that uuid_to_id accepts is one id_to_uuid gives, and the others are refused
// with InvalidParameter: random UUIDs, and UUIDs one bit away from an id's.
TEST(Uuid, RefusesUuidsNoIdMapsTo)
{
    std::mt19937_64 rng(20);
    for (const Layout& l : time_first_layouts()) {
        int refused = 0, accepted = 0;
        for (int i = 0; i < 3000; i++) {
            Uuid u;
            if (i % 2) {
                u = id_to_uuid(l, random_id(l, rng));
                u128 v = value_of(u) ^ (u128{1} << (rng() % 128));
                u = uuid_of(v);
            } else {
                u = uuid_of((u128{rng()} << 64) | rng());
            }
            try {
                const int64_t id = uuid_to_id(l, u);
                ASSERT_EQ(value_of(id_to_uuid(l, id)), value_of(u)) << l.name;
                accepted++;
            } catch (const Error& e) {
                ASSERT_EQ(e.kind(), ErrorKind::InvalidParameter) << l.name << ": " << e.what();
                refused++;
            }
        }
        EXPECT_GT(refused, 1000) << l.name;
        (void) accepted;
    }
    // the ids' time range: before the epoch, and past the layout's last unit
    const Layout& sf = *builtin_layout("snowflake");
    EXPECT_EQ(kind_of([&] { uuid_to_id(sf, uuidv7_bound(0)); }), ErrorKind::InvalidParameter);
    const Layout& i = *builtin_layout("instagram");
    EXPECT_EQ(kind_of([&] { uuid_to_id(i, uuidv7_bound(4000000000000 * kMs)); }), ErrorKind::InvalidParameter);
    // a sonyflake time between two 10 ms units
    const Layout& sony = *builtin_layout("sonyflake");
    EXPECT_EQ(kind_of([&] { uuid_to_id(sony, uuidv7_bound((1409529600000 + 5) * kMs)); }),
              ErrorKind::InvalidParameter);
    EXPECT_EQ(uuid_to_id(sony, uuidv7_bound((1409529600000 + 10) * kMs)), int64_t{1} << 24);
}

TEST(Uuid, IdsOutsideTheMillisecondRange)
{
    // epoch before 1970: the first ids have no unix_ts_ms
    const Layout old = parse_layout("old", -1000 * kMs, "time:40", kMs);
    EXPECT_EQ(kind_of([&] { id_to_uuid(old, 0); }), ErrorKind::OutOfRange);
    EXPECT_EQ(uuid_to_id(old, id_to_uuid(old, 1000)), 1000);
    // and a layout that outlasts the 48-bit milliseconds
    const Layout longer = parse_layout("longer", 0, "time:49", kMs);
    EXPECT_EQ(kind_of([&] { id_to_uuid(longer, int64_t{1} << 48); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { id_to_uuid(*builtin_layout("snowflake"), -1); }), ErrorKind::OutOfRange);
}

// The UUIDv7 layout's ids order as their UUIDs whatever the random bits.
TEST(Uuid, Uuidv7LayoutOrdersAsItsIds)
{
    std::mt19937_64 rng(21);
    const Layout& l = uuidv7_layout();
    EXPECT_EQ(format_fields(l), "time:48,seq:12");
    EXPECT_EQ(l.epoch_us, 0);
    int64_t prev = -1;
    u128 prev_v = 0;
    for (int i = 0; i < 10000; i++) {
        int64_t id = prev < 0 ? 0 : prev + 1 + static_cast<int64_t>(rng() % (i % 3 ? 2 : 1 << 20));
        const u128 v = value_of(uuidv7_from_id(id, rng()));
        ASSERT_EQ((v >> 76) & 0xf, 7u);
        ASSERT_EQ((v >> 62) & 3, 2u);
        ASSERT_EQ(static_cast<int64_t>(v >> 80), id >> 12);
        if (prev >= 0) {
            ASSERT_GT(v, prev_v);
        }
        prev = id;
        prev_v = v;
    }
}

// ---- ULID text ----------------------------------------------------------------------------------

// Vectors from github.com/ulid/spec (README.md: the canonical 26-character Crockford base32,
// "7ZZZZZZZZZZZZZZZZZZZZZZZZZ" the largest, anything larger an overflow) and
// github.com/ulid/javascript (README.md: ulid(1469918176385) starts "01ARYZ6S41"). The hex
// forms were computed independently (Python int(..., 32) over Crockford's alphabet).
TEST(UuidText, UlidSpecVectors)
{
    const Charset& c = *builtin_charset("crockford32");
    EXPECT_EQ(uuid_code_width(32), 26);
    EXPECT_EQ(uuid_code_width(16), 32);
    EXPECT_EQ(uuid_code_width(2), 128);
    EXPECT_EQ(uuid_code_width(62), 22);
    const Uuid a = decode_uuid(c, "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    EXPECT_EQ(value_of(a), value_of(parse_hex("01563e3a-b5d3-d676-4c61-efb99302bd5b")));
    EXPECT_EQ(encode_uuid(c, a), "01ARZ3NDEKTSV4RRFFQ69G5FAV");
    const Uuid b = decode_uuid(c, "01ARYZ6S41TSV4RRFFQ69G5FAV");
    EXPECT_EQ(static_cast<int64_t>(value_of(b) >> 80), 1469918176385);
    EXPECT_EQ(encode_uuid(c, b), "01ARYZ6S41TSV4RRFFQ69G5FAV");
    // Crockford: either case, O for 0, I and L for 1
    EXPECT_EQ(value_of(decode_uuid(c, "0lARYZ6S4ITSV4RRFFQ69G5FAV")), value_of(b));
    EXPECT_EQ(value_of(decode_uuid(c, "o1aryz6s41tsv4rrffq69g5fav")), value_of(b));
    EXPECT_EQ(value_of(decode_uuid(c, "7ZZZZZZZZZZZZZZZZZZZZZZZZZ")), ~u128{0});
    EXPECT_EQ(encode_uuid(c, uuid_of(~u128{0})), "7ZZZZZZZZZZZZZZZZZZZZZZZZZ");
    EXPECT_EQ(encode_uuid(c, Uuid{}), "00000000000000000000000000");
    EXPECT_EQ(kind_of([&] { decode_uuid(c, "80000000000000000000000000"); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { decode_uuid(c, "ZZZZZZZZZZZZZZZZZZZZZZZZZZ"); }), ErrorKind::OutOfRange);
    EXPECT_EQ(kind_of([&] { decode_uuid(c, "01ARZ3NDEKTSV4RRFFQ69G5FAU"); }), ErrorKind::Syntax); // U
    EXPECT_EQ(kind_of([&] { decode_uuid(c, "01ARZ3NDEKTSV4RRFFQ69G5FA"); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode_uuid(c, "01ARZ3NDEKTSV4RRFFQ69G5FAVV"); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode_uuid(c, ""); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode_uuid(c, std::string(10000, '0')); }), ErrorKind::Syntax);
}

// Against an independent oracle (the digits by long division of the bytes) in every built-in
// charset, and the code order equal to the value order (fixed width).
TEST(UuidText, RoundTripsInEveryCharset)
{
    std::mt19937_64 rng(22);
    for (const Charset& cs : builtin_charsets()) {
        CodecTable t;
        CodecTable::build(cs, t);
        for (int i = 0; i < 300; i++) {
            const Uuid u = uuid_of((u128{rng()} << 64) | rng());
            const std::string code = encode_uuid(cs, u);
            ASSERT_EQ(code, encode_uuid(t, u));
            // oracle: repeated division of the 16 bytes by the base
            std::vector<uint8_t> bytes(u.begin(), u.end());
            std::vector<int> digits;
            for (int n = 0; n < uuid_code_width(cs.base()); n++) {
                unsigned rem = 0;
                for (uint8_t& b : bytes) {
                    const unsigned cur = rem * 256 + b;
                    b = static_cast<uint8_t>(cur / static_cast<unsigned>(cs.base()));
                    rem = cur % static_cast<unsigned>(cs.base());
                }
                digits.insert(digits.begin(), static_cast<int>(rem));
            }
            std::string expect;
            for (int d : digits)
                expect += cs.symbol(d);
            ASSERT_EQ(code, expect) << cs.name();
            ASSERT_EQ(value_of(decode_uuid(cs, code)), value_of(u)) << cs.name();
            ASSERT_EQ(value_of(decode_uuid(t, code)), value_of(u)) << cs.name();
        }
    }
}

// ---- TSID -----------------------------------------------------------------------------------------

// Vectors from github.com/f4b6a3/tsid-creator: src/test/java/com/github/f4b6a3/tsid/TsidTest.java
// (10 is "000000000000A"; time 0 is 2020-01-01T00:00:00.000Z; "G000000000000" sets the bit past
// 64 and is refused; testIsValid: either case and the aliases i, l, o are valid, u is not, 12
// or 14 symbols are not) and its README.md ("0123456789ABC" was created at
// 2020-04-15T22:31:02.458Z); github.com/vladmihalcea/hypersistence-tsid's
// src/test/java/io/hypersistence/tsid/TsidTest.java has the same vectors.
TEST(Tsid, TsidCreatorVectors)
{
    const Layout& l = *builtin_layout("tsid");
    const Charset& c = *builtin_charset("crockford32");
    std::string out;
    encode(c, 10, 0, 13, out);
    EXPECT_EQ(out, "000000000000A");
    EXPECT_EQ(decode(c, "000000000000A", 0, 13), 10);
    EXPECT_EQ(format_timestamp_us(unpack(l, 0).ts_us), "2020-01-01 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(unpack(l, decode(c, "0123456789ABC", 0, 13)).ts_us), "2020-04-15 22:31:02.458+00");
    EXPECT_EQ(decode(c, "0123456789abc", 0, 13), decode(c, "0123456789ABC", 0, 13));
    EXPECT_EQ(kind_of([&] { decode(c, "G000000000000", 0, 13); }), ErrorKind::OutOfRange);
    EXPECT_EQ(decode(c, "0123456789AbC", 0, 13), decode(c, "0123456789ABC", 0, 13));
    EXPECT_EQ(decode(c, "0123456789ABi", 0, 13), decode(c, "0123456789AB1", 0, 13));
    EXPECT_EQ(decode(c, "0123456789ABl", 0, 13), decode(c, "0123456789AB1", 0, 13));
    EXPECT_EQ(decode(c, "0123456789ABo", 0, 13), decode(c, "0123456789AB0", 0, 13));
    EXPECT_EQ(kind_of([&] { decode(c, "0123456789ABu", 0, 13); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode(c, "0123456789AB#", 0, 13); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode(c, "0123456789AB", 0, 13); }), ErrorKind::Syntax);
    EXPECT_EQ(kind_of([&] { decode(c, "0123456789ABCC", 0, 13); }), ErrorKind::Syntax);
    // TSID's own layout: 42-bit time, 10-bit node, 12-bit counter; ours is the same below the sign bit
    const int64_t id = pack(l, (1577836800000 + 123456789) * kMs, 1023, 4095, 0);
    EXPECT_EQ(id, (int64_t{123456789} << 22) | (1023 << 12) | 4095);
}

// ---- The per-backend random generator ----------------------------------------------------------

// RFC 8439 section 2.3.2's test vector (confirmed with Python's cryptography package).
TEST(Chacha20, Rfc8439BlockVector)
{
    uint32_t key[8], nonce[3] = {0x09000000, 0x4a000000, 0};
    for (uint32_t i = 0; i < 8; i++)
        key[i] = (4 * i) | (4 * i + 1) << 8 | (4 * i + 2) << 16 | (4 * i + 3) << 24;
    uint8_t out[64];
    chacha20_block(key, 1, nonce, out);
    const char* want = "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4e"
                       "d2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e";
    char hex[129];
    for (int i = 0; i < 64; i++)
        std::snprintf(hex + 2 * i, 3, "%02x", out[i]);
    EXPECT_STREQ(hex, want);
}

// The generator is the keystream of its seed, after the key erasure: its first output is
// bytes 32..39 of ChaCha20(seed key, nonce) blocks 0..3; it never repeats in a long run, the
// same seed gives the same stream, another seed another, and its bits are balanced.
TEST(Chacha20, KeystreamRng)
{
    uint8_t seed[KeystreamRng::kSeedBytes];
    for (size_t i = 0; i < sizeof seed; i++)
        seed[i] = static_cast<uint8_t>(i * 7 + 3);
    KeystreamRng a, b, c;
    EXPECT_FALSE(a.seeded());
    a.seed(seed);
    b.seed(seed);
    seed[0] ^= 1;
    c.seed(seed);
    seed[0] ^= 1;
    uint32_t key[8], nonce[3];
    std::memcpy(key, seed, 32); // little-endian host, as load32 reads
    std::memcpy(nonce, seed + 32, 12);
    uint8_t block[64];
    chacha20_block(key, 0, nonce, block);
    uint64_t first;
    std::memcpy(&first, block + 32, 8);
    EXPECT_EQ(a.next(), first);
    b.next();
    std::vector<uint64_t> seen;
    int ones = 0, differ = 0;
    for (int i = 0; i < 100000; i++) {
        const uint64_t v = a.next();
        ASSERT_EQ(v, b.next());
        differ += v != c.next();
        ones += __builtin_popcountll(v);
        seen.push_back(v);
    }
    EXPECT_EQ(a.outputs(), 100001u);
    EXPECT_EQ(differ, 100000);
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::adjacent_find(seen.begin(), seen.end()), seen.end());
    EXPECT_NEAR(ones / (100000.0 * 64), 0.5, 0.002);
}
