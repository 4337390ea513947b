// libFuzzer target for snowflake layout field specs (idseq::parse_layout in
// src/core/snowflake.h), the parser behind snowflake_create_layout, and for pack/unpack.
// Input: bytes 0..7 the epoch (µs, big-endian int64); byte 8 picks the time unit (1 µs,
// 1 ms, 10 ms, or bytes 9..16 as a raw int64); then five int64: a timestamp, node, seq, rand
// and an id; the rest is the field spec.
// Properties:
// - parse_layout throws only idseq::Error of kind InvalidParameter (messages valid UTF-8
//   for valid UTF-8 input), or gives a layout with a time field, at most 63 bits, and fields
//   that tile bits 0 .. total-1 in the order written;
// - format_fields re-parses to the same layout, and is a fixed point;
// - pack/unpack round-trip: fitting field values pack without error and unpack to the same
//   values; arbitrary values either fail with OutOfRange or round-trip (time floored to its
//   unit); any id either fails with OutOfRange or unpacks to values that pack back to it;
// - validate_layout_name accepts exactly ^[a-z_][a-z0-9_]{0,62}$.
//
//   make build/fuzz_layout && mkdir -p build/corpus/layout
//   build/fuzz_layout -max_total_time=60 build/corpus/layout core_tests/fuzz/corpus/layout
#include "cpp_only.h"
#include "error.h"
#include "snowflake.h"

#include "fuzz_util.h"

#include <algorithm>
#include <string>
#include <vector>

using namespace idseq;
using fuzz::check;
using fuzz::name_ok;

namespace {


bool same_fields(const Layout& a, const Layout& b)
{
    for (int f = 0; f < kFieldCount; f++)
        if (a.fields[f].width != b.fields[f].width || a.fields[f].shift != b.fields[f].shift)
            return false;
    return true;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size)
{
    fuzz::Reader in(data, size);
    const int64_t epoch = in.i64();
    const uint8_t unit_kind = in.byte();
    const int64_t unit = unit_kind % 4 == 0 ? 1 : unit_kind % 4 == 1 ? 1000 : unit_kind % 4 == 2 ? 10000 : in.i64();
    const int64_t ts_raw = in.i64(), node_raw = in.i64(), seq_raw = in.i64(), rand_raw = in.i64(), id_raw = in.i64();
    const std::string spec(in.rest());
    const bool utf8 = fuzz::valid_utf8(spec);

    bool accepted = true;
    try {
        validate_layout_name(spec);
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        accepted = false;
    }
    check(accepted == name_ok(spec), "validate_layout_name disagrees with the grammar");

    Layout L;
    try {
        L = parse_layout("fz", epoch, spec, unit);
    } catch (const Error& e) {
        fuzz::check_error(e, utf8);
        check(e.kind() == ErrorKind::InvalidParameter, "a bad layout is not InvalidParameter");
        return 0;
    }
    check(unit >= 1, "a time unit below 1 µs was accepted");
    check(L.has(Field::Time), "a layout without a time field");
    check(L.total_bits() >= 1 && L.total_bits() <= kMaxLayoutBits, "layout bits out of range");
    // The present fields tile bits 0 .. total-1.
    std::vector<FieldBits> present;
    for (const FieldBits& b : L.fields)
        if (b.width > 0)
            present.push_back(b);
    std::sort(present.begin(), present.end(), [](const FieldBits& a, const FieldBits& b) { return a.shift > b.shift; });
    int top = L.total_bits();
    for (const FieldBits& b : present) {
        check(b.shift + b.width == top, "fields do not tile the bits");
        top = b.shift;
    }
    check(top == 0, "fields do not reach bit 0");
    try {
        validate_sql_field_widths(L);
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::InvalidParameter, "a too-wide field is not InvalidParameter");
    }

    // Re-printing.
    const std::string fields = format_fields(L);
    const Layout L2 = parse_layout("fz", epoch, fields, unit);
    check(same_fields(L, L2), "format_fields does not re-parse to the same layout");
    check(format_fields(L2) == fields, "format_fields is not a fixed point");

    // Fitting values pack and unpack exactly.
    const int64_t units = ts_raw & L.max_value(Field::Time);
    const __int128 ts128 = static_cast<__int128>(epoch) + static_cast<__int128>(units) * unit;
    if (ts128 >= INT64_MIN && ts128 <= INT64_MAX) {
        const int64_t ts = static_cast<int64_t>(ts128);
        const int64_t node = node_raw & L.max_value(Field::Node), seq = seq_raw & L.max_value(Field::Seq),
                      rand = rand_raw & L.max_value(Field::Rand);
        int64_t id = -1;
        try {
            id = pack(L, ts, node, seq, rand);
        } catch (const Error& e) {
            std::fprintf(stderr, "%s\n%s\n", e.what(), e.detail().c_str());
            check(false, "fitting values do not pack");
        }
        check(id >= 0 && id <= L.max_id(), "packed id out of range");
        const Unpacked u = unpack(L, id);
        check(u.ts_us == ts && u.node == node && u.seq == seq && u.rand == rand, "unpack(pack(v)) != v");
    }

    // Arbitrary values: OutOfRange, or a round trip with the time floored to its unit.
    try {
        const int64_t id = pack(L, ts_raw, node_raw, seq_raw, rand_raw);
        check(id >= 0 && id <= L.max_id(), "packed id out of range");
        const Unpacked u = unpack(L, id);
        check(u.node == node_raw && u.seq == seq_raw && u.rand == rand_raw, "unpack(pack(v)) changed a field");
        check(u.ts_us <= ts_raw && static_cast<__int128>(ts_raw) - u.ts_us < unit, "time not floored to its unit");
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::OutOfRange, "a bad pack is not OutOfRange");
    }

    // Any id: OutOfRange, or values that pack back to it.
    try {
        const Unpacked u = unpack(L, id_raw);
        check(pack(L, u.ts_us, u.node, u.seq, u.rand) == id_raw, "pack(unpack(id)) != id");
    } catch (const Error& e) {
        fuzz::check_error(e, true);
        check(e.kind() == ErrorKind::OutOfRange, "a bad unpack is not OutOfRange");
    }
    return 0;
}
