// Unit tests of the snowflake core: layouts, time units, pack/unpack, the field-order rule and the bounds of derived time conditions.
#include "snowflake_fixtures.h"

using namespace idseq;
using namespace idseq::sf_test;

// ---- Layouts --------------------------------------------------------------------------------

TEST(SnowflakeLayout, BuiltinsMatchTheTable)
{
    struct Row {
        const char* name;
        const char* fields;
        int64_t epoch_us;
        int64_t unit_us;
        int bits;
    };
    const Row rows[] = {
        {"snowflake", "time:41,node:10,seq:12", 1288834974657 * kMs, kMs, 63},
        {"instagram", "time:40,node:13,seq:10", 1314220021721 * kMs, kMs, 63},
        {"sonyflake", "time:39,seq:8,node:16", 1409529600000 * kMs, 10 * kMs, 63},
        {"display60", "time:42,seq:9,rand:9", 1519862400000 * kMs, kMs, 60},
        {"nonsequential", "time:40,node:10,rand:13", 1346472000000 * kMs, kMs, 63},
        {"tsid", "time:41,node:10,seq:12", 1577836800000 * kMs, kMs, 63},
    };
    ASSERT_EQ(builtin_layouts().size(), std::size(rows));
    for (size_t i = 0; i < std::size(rows); ++i) {
        const Layout& l = builtin_layouts()[i];
        EXPECT_EQ(l.name, rows[i].name);
        EXPECT_EQ(format_fields(l), rows[i].fields);
        EXPECT_EQ(l.epoch_us, rows[i].epoch_us);
        EXPECT_EQ(l.unit_us, rows[i].unit_us);
        EXPECT_EQ(l.total_bits(), rows[i].bits);
        EXPECT_TRUE(l.builtin);
        EXPECT_EQ(builtin_layout(rows[i].name), &l);
    }
    EXPECT_EQ(builtin_layout("nope"), nullptr);
    EXPECT_EQ(format_timestamp_us(builtin("snowflake").epoch_us), "2010-11-04 01:42:54.657+00");
    EXPECT_EQ(format_timestamp_us(builtin("instagram").epoch_us), "2011-08-24 21:07:01.721+00");
    EXPECT_EQ(format_timestamp_us(builtin("sonyflake").epoch_us), "2014-09-01 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(builtin("display60").epoch_us), "2018-03-01 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(builtin("nonsequential").epoch_us), "2012-09-01 04:00:00+00");

    const Layout& d = builtin("display60"); // 4 zero bits, then time 42, seq 9, rand 9
    EXPECT_EQ(d[Field::Time].shift, 18);
    EXPECT_EQ(d[Field::Seq].shift, 9);
    EXPECT_EQ(d[Field::Rand].shift, 0);
    EXPECT_FALSE(d.has(Field::Node));
    EXPECT_EQ(d.max_id(), (int64_t{1} << 60) - 1);
    const Layout& s = builtin("sonyflake");
    EXPECT_EQ(s[Field::Time].shift, 24);
    EXPECT_EQ(s[Field::Seq].shift, 16);
    EXPECT_EQ(s[Field::Node].shift, 0);
}

TEST(SnowflakeLayout, ParsesSpecsWithWhitespaceAndAnyOrder)
{
    Layout l = parse_layout("x", 0, "  time : 41 ,node:10 ,\tseq:12  ", kMs);
    EXPECT_EQ(format_fields(l), "time:41,node:10,seq:12");
    EXPECT_FALSE(l.builtin);

    Layout o = parse_layout("o", 0, "seq:5,time:20,node:3", kMs);
    EXPECT_EQ(o[Field::Seq].shift, 23);
    EXPECT_EQ(o[Field::Time].shift, 3);
    EXPECT_EQ(o[Field::Node].shift, 0);
    EXPECT_EQ(o.total_bits(), 28);
    EXPECT_EQ(format_fields(o), "seq:5,time:20,node:3");

    for (const Layout& a : all_layouts()) {
        Layout b = parse_layout(a.name, a.epoch_us, format_fields(a), a.unit_us);
        for (int f = 0; f < kFieldCount; ++f) {
            EXPECT_EQ(b.fields[f].width, a.fields[f].width) << a.name;
            EXPECT_EQ(b.fields[f].shift, a.fields[f].shift) << a.name;
        }
    }
    EXPECT_EQ(parse_layout("t", 0, "time:63", 1).max_id(), std::numeric_limits<int64_t>::max());
    EXPECT_EQ(parse_layout("t", 0, "time:1", 1).max_id(), 1);
}

TEST(SnowflakeLayout, RejectsBadSpecs)
{
    const char* bad[] = {
        "", "   ", ",", "time:41,", ",time:41", "time:41,,seq:3", "time", "time41", ":5", "time:", "time: ",
        "time:0", "time:-1", "time:+5", "time:abc", "time:4x", "time:1.5", "time:99999999999999999999",
        "time:64", "time:41,node:10,seq:13", "time:41,foo:3", "Time:41", "time:4,time:5", "time:4,seq:1,seq:2",
        "node:10,seq:12", "time:41;node:10", "time:41:2", "time:40,node:0",
    };
    for (const char* spec : bad) {
        Error e = expect_error(ErrorKind::InvalidParameter, [&] { parse_layout("x", 0, spec, kMs); });
        EXPECT_EQ(std::string(e.what()), "invalid snowflake layout fields \"" + std::string(spec) + "\"") << spec;
        EXPECT_FALSE(e.detail().empty()) << spec;
        EXPECT_NE(e.hint().find("time:41,node:10,seq:12"), std::string::npos) << spec;
    }
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:4,rand:1,time:5", 1); })
                  .detail(),
              "The field \"time\" appears more than once.");
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:41,node:11,seq:12", 1); })
                  .detail(),
              "The fields take 64 bits, but at most 63 fit in a bigint beside its sign bit.");
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:4,shard:3", 1); }).detail(),
              "The field name \"shard\" is not one of time, node, seq, rand.");
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "seq:4", 1); }).detail(),
              "The field \"time\" is required.");
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:-3", 1); }).detail(),
              "The width \"-3\" of field \"time\" is not a positive integer.");
    expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:41", 0); });
    expect_error(ErrorKind::InvalidParameter, [] { parse_layout("x", 0, "time:41", -1000); });
    expect_error(ErrorKind::InvalidParameter, [] { parse_layout("", 0, "time:41", 1); });
}

TEST(SnowflakeLayout, FormatsTimestampsLikePostgres)
{
    EXPECT_EQ(format_timestamp_us(0), "1970-01-01 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(-1), "1969-12-31 23:59:59.999999+00");
    EXPECT_EQ(format_timestamp_us(1500), "1970-01-01 00:00:00.0015+00");
    EXPECT_EQ(format_timestamp_us(951782400000000), "2000-02-29 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(-210866803200000000), "4714-11-24 00:00:00+00 BC"); // PostgreSQL's minimum
    EXPECT_EQ(format_timestamp_us(-62135596800000000), "0001-01-01 00:00:00+00");
    EXPECT_EQ(format_timestamp_us(-62135596800000001), "0001-12-31 23:59:59.999999+00 BC");
    EXPECT_EQ(format_timestamp_us(std::numeric_limits<int64_t>::max()), "294247-01-10 04:00:54.775807+00");
    EXPECT_FALSE(format_timestamp_us(std::numeric_limits<int64_t>::min()).empty());
}

// ---- Time units -----------------------------------------------------------------------------

TEST(SnowflakeUnits, FloorAndSaturate)
{
    const Layout& s = builtin("sonyflake"); // 10 ms units
    EXPECT_EQ(unit_of(s, s.epoch_us), 0);
    EXPECT_EQ(unit_of(s, s.epoch_us + 9999), 0);
    EXPECT_EQ(unit_of(s, s.epoch_us + 10000), 1);
    EXPECT_EQ(unit_of(s, s.epoch_us - 1), -1);
    EXPECT_EQ(unit_of(s, s.epoch_us - 10000), -1);
    EXPECT_EQ(unit_of(s, s.epoch_us - 10001), -2);
    EXPECT_EQ(unit_start_us(s, 3), s.epoch_us + 30000);
    EXPECT_EQ(unit_end_us(s, 3), s.epoch_us + 40000);
    EXPECT_EQ(last_ts_us(s), 6907087738879999);
    EXPECT_EQ(last_ts_us(builtin("snowflake")), 3487858230208999);
    EXPECT_EQ(last_ts_us(builtin("display60")), 5917908911103999);

    Layout neg = parse_layout("neg", -1000000, "time:63", 1);
    constexpr int64_t kMax = std::numeric_limits<int64_t>::max(), kMin = std::numeric_limits<int64_t>::min();
    EXPECT_EQ(unit_of(neg, kMax), kMax); // (kMax + 10^6) saturates
    EXPECT_EQ(unit_of(neg, kMin), kMin + 1000000);
    Layout pos = parse_layout("pos", 1000000, "time:63", 1);
    EXPECT_EQ(unit_of(pos, kMin), kMin);
    EXPECT_EQ(unit_start_us(pos, kMax), kMax);
    EXPECT_EQ(unit_end_us(pos, kMax), kMax);
    EXPECT_EQ(last_ts_us(pos), kMax);
}

// ---- Pack / unpack --------------------------------------------------------------------------

TEST(SnowflakePack, SeedExamples)
{
    // The display-id article: storage id 11093174944930914 in the display60 layout.
    const Layout& d = builtin("display60");
    Unpacked u = unpack(d, 11093174944930914);
    EXPECT_EQ(u.ts_us, 1562179504129000);
    EXPECT_EQ(format_timestamp_us(u.ts_us), "2019-07-03 18:45:04.129+00");
    EXPECT_EQ(u.seq, 270);
    EXPECT_EQ(u.rand, 98);
    EXPECT_EQ(u.node, 0);
    EXPECT_EQ(pack(d, u.ts_us, 0, 270, 98), 11093174944930914);

    // The nonsequential-keys article's arithmetic, (t << 23) + (node << 13) + rand, with the moved epoch.
    const Layout& n = builtin("nonsequential");
    const int64_t t = 1347927116156 - 1346472000000; // the article's time.time() sample
    const int64_t ts = (1347927116156 * kMs);
    EXPECT_EQ(pack(n, ts, 1, 0, 1), (t << 23) + (1 << 13) + 1);
    EXPECT_EQ(pack(n, ts, 512, 0, 4096), (t << 23) + (512 << 13) + 4096);
    EXPECT_EQ(pack(n, ts, 1023, 0, 8191), (t << 23) + (1023 << 13) + 8191);

    // Instagram's published example: 1387263000 ms after the epoch, shard 1341, seq 5001 % 1024.
    const Layout& i = builtin("instagram");
    EXPECT_EQ(pack(i, i.epoch_us + 1387263000 * kMs, 1341, 5001 % 1024, 0), 11637205501278089);
}

TEST(SnowflakePack, RoundTripsRandomValues)
{
    std::mt19937_64 rng(1);
    for (const Layout& l : all_layouts()) {
        const int64_t top = max_usable_unit(l);
        for (int i = 0; i < 3000; ++i) {
            int64_t unit = static_cast<int64_t>(rng() % (static_cast<uint64_t>(top) + 1));
            if (i < 3)
                unit = i == 0 ? 0 : top; // always cover the ends
            int64_t start = unit_start_us(l, unit);
            const int64_t kMax = std::numeric_limits<int64_t>::max();
            int64_t room = start > kMax - (l.unit_us - 1) ? kMax - start : l.unit_us - 1; // ts may not pass kMax
            int64_t ts = start + static_cast<int64_t>(rng() % (static_cast<uint64_t>(room) + 1));
            auto rnd = [&](Field f) { return static_cast<int64_t>(rng() & static_cast<uint64_t>(l.max_value(f))); };
            int64_t node = rnd(Field::Node), seq = rnd(Field::Seq), rand = rnd(Field::Rand);
            int64_t id = pack(l, ts, node, seq, rand);
            ASSERT_GE(id, 0);
            ASSERT_LE(id, l.max_id());
            Unpacked u = unpack(l, id);
            ASSERT_EQ(u.ts_us, start) << l.name;
            ASSERT_EQ(u.node, node);
            ASSERT_EQ(u.seq, seq);
            ASSERT_EQ(u.rand, rand);
            ASSERT_EQ(unit_of(l, ts), unit);
            ASSERT_EQ(min_id(l, ts), unit << l[Field::Time].shift);
            ASSERT_EQ(pack(l, u.ts_us, u.node, u.seq, u.rand), id);

            // And from the other side: a random id in range.
            int64_t rid = static_cast<int64_t>(rng() & static_cast<uint64_t>(l.max_id()));
            if (((rid >> l[Field::Time].shift) & l.max_value(Field::Time)) <= top) {
                Unpacked r = unpack(l, rid);
                ASSERT_EQ(pack(l, r.ts_us, r.node, r.seq, r.rand), rid) << l.name;
            }
        }
    }
}

TEST(SnowflakePack, OrdersByTimeFirst)
{
    std::mt19937_64 rng(2);
    for (const Layout& l : builtin_layouts()) {
        int64_t prev = -1;
        for (int64_t ts = l.epoch_us; ts < l.epoch_us + 1000 * l.unit_us; ts += l.unit_us) {
            int64_t lo = min_id(l, ts);
            EXPECT_GT(lo, prev);
            prev = pack(l, ts, l.max_value(Field::Node), l.max_value(Field::Seq), l.max_value(Field::Rand));
            EXPECT_LT(prev, min_id(l, ts + l.unit_us)) << l.name;
        }
    }
}

TEST(SnowflakePack, Boundaries)
{
    for (const Layout& l : builtin_layouts()) {
        SCOPED_TRACE(l.name);
        const int64_t tshift = l[Field::Time].shift, tmax = l.max_value(Field::Time);
        EXPECT_EQ(pack(l, l.epoch_us, 0, 0, 0), 0);
        EXPECT_EQ(unpack(l, 0).ts_us, l.epoch_us);
        EXPECT_EQ(pack(l, last_ts_us(l), 0, 0, 0), tmax << tshift);
        EXPECT_EQ(unpack(l, tmax << tshift).ts_us, unit_start_us(l, tmax));
        EXPECT_EQ(unpack(l, l.max_id()).ts_us, unit_start_us(l, tmax));

        for (int64_t ts : {l.epoch_us - 1, last_ts_us(l) + 1, std::numeric_limits<int64_t>::min(),
                           std::numeric_limits<int64_t>::max()}) {
            Error e = expect_error(ErrorKind::OutOfRange, [&] { pack(l, ts, 0, 0, 0); });
            EXPECT_EQ(std::string(e.what()), "timestamp \"" + format_timestamp_us(ts) +
                                                 "\" is out of range for snowflake layout \"" + l.name + "\"");
            EXPECT_EQ(e.detail(), "The layout \"" + l.name + "\" represents timestamps from " +
                                      format_timestamp_us(l.epoch_us) + " to " + format_timestamp_us(last_ts_us(l)) +
                                      ".");
            expect_error(ErrorKind::OutOfRange, [&] { min_id(l, ts); });
        }

        for (Field f : {Field::Node, Field::Seq, Field::Rand}) {
            std::array<int64_t, 3> v{0, 0, 0};
            auto& slot = v[static_cast<size_t>(f) - 1];
            auto try_pack = [&] { return pack(l, l.epoch_us, v[0], v[1], v[2]); };
            const std::string name(field_name(f));
            if (l.has(f)) {
                slot = l.max_value(f);
                Unpacked u = unpack(l, try_pack());
                EXPECT_EQ((std::array<int64_t, 3>{u.node, u.seq, u.rand}), v);
                for (int64_t bad : {l.max_value(f) + 1, int64_t{-1}, std::numeric_limits<int64_t>::max()}) {
                    slot = bad;
                    Error e = expect_error(ErrorKind::OutOfRange, try_pack);
                    EXPECT_EQ(std::string(e.what()),
                              "snowflake field \"" + name + "\" value " + std::to_string(bad) + " is out of range");
                    EXPECT_EQ(e.detail(), "The layout \"" + l.name + "\" allows " + name + " values from 0 to " +
                                              std::to_string(l.max_value(f)) + ".");
                }
            } else {
                slot = 1;
                Error e = expect_error(ErrorKind::OutOfRange, try_pack);
                EXPECT_EQ(e.detail(), "The layout \"" + l.name + "\" has no " + name + " field, so its value must be 0.");
            }
        }

        expect_error(ErrorKind::OutOfRange, [&] { unpack(l, -1); });
        expect_error(ErrorKind::OutOfRange, [&] { unpack(l, std::numeric_limits<int64_t>::min()); });
        if (l.total_bits() < 63) {
            Error e = expect_error(ErrorKind::OutOfRange, [&] { unpack(l, l.max_id() + 1); });
            EXPECT_EQ(e.detail(),
                      "The layout \"" + l.name + "\" allows ids from 0 to " + std::to_string(l.max_id()) + ".");
        }
    }

    // The example from the contract, verbatim.
    Error e = expect_error(ErrorKind::OutOfRange, [] { pack(builtin("snowflake"), builtin("snowflake").epoch_us, 1024, 0, 0); });
    EXPECT_STREQ(e.what(), "snowflake field \"node\" value 1024 is out of range");
    EXPECT_EQ(e.detail(), "The layout \"snowflake\" allows node values from 0 to 1023.");

    // A custom layout whose range runs past the int64 microsecond range: pack accepts every
    // timestamp from the epoch on; ids beyond the representable timestamps fail to unpack.
    Layout daily = parse_layout("daily", 0, "time:30,seq:3", 86400 * 1000 * kMs);
    EXPECT_EQ(last_ts_us(daily), std::numeric_limits<int64_t>::max());
    int64_t id = pack(daily, std::numeric_limits<int64_t>::max(), 0, 7, 0);
    EXPECT_EQ(unpack(daily, id).seq, 7);
    expect_error(ErrorKind::OutOfRange, [&] { unpack(daily, daily.max_id()); });
}


// ---- Names and SQL limits -------------------------------------------------------------------

TEST(SnowflakeLayout, NamesAndSqlFieldWidths)
{
    for (const char* ok : {"a", "_", "orders", "x_1", "abcdefghijklmnopqrstuvwxyz_0123456789_abcdefghijklmnopqrstuvwxy"})
        EXPECT_NO_THROW(validate_layout_name(ok)) << ok;
    for (const char* bad : {"", "1a", "A", "a-b", "a b", "é", "abcdefghijklmnopqrstuvwxyz_0123456789_abcdefghijklmnopqrstuvwxyzX"}) {
        Error e = expect_error(ErrorKind::InvalidParameter, [&] { validate_layout_name(bad); });
        EXPECT_EQ(std::string(e.what()), "invalid snowflake layout name \"" + shown(bad) + "\"");
    }
    EXPECT_NO_THROW(validate_layout_name(std::string(63, 'a')));
    expect_error(ErrorKind::InvalidParameter, [] { validate_layout_name(std::string(64, 'a')); });

    for (const Layout& l : builtin_layouts())
        EXPECT_NO_THROW(validate_sql_field_widths(l));
    EXPECT_NO_THROW(validate_sql_field_widths(parse_layout("x", 0, "time:1,node:31,seq:31", 1)));
    Error e = expect_error(ErrorKind::InvalidParameter,
                           [] { validate_sql_field_widths(parse_layout("x", 0, "time:20,rand:32", 1)); });
    EXPECT_STREQ(e.what(), "snowflake field \"rand\" of 32 bits is too wide");
    expect_error(ErrorKind::InvalidParameter, [] { validate_sql_field_widths(parse_layout("x", 0, "time:2,node:40", 1)); });

    Error t = expect_error(ErrorKind::OutOfRange, [] { fail_timestamp_out_of_range(builtin("snowflake"), "infinity"); });
    EXPECT_STREQ(t.what(), "timestamp \"infinity\" is out of range for snowflake layout \"snowflake\"");
    EXPECT_EQ(t.detail(), time_range_detail(builtin("snowflake")));
}

TEST(SnowflakeUnits, FastDivisionMatchesTheWideOne)
{
    std::mt19937_64 rng(11);
    for (const Layout& l : all_layouts())
        for (int i = 0; i < 20000; ++i) {
            int64_t ts = static_cast<int64_t>(rng());
            if (i % 2)
                ts = l.epoch_us + static_cast<int64_t>(rng() % 2000001) - 1000000;
            __extension__ typedef __int128 i128;
            i128 d = i128{ts} - l.epoch_us, q = d / l.unit_us;
            if (d % l.unit_us < 0)
                --q;
            q = std::max<i128>(std::min<i128>(q, std::numeric_limits<int64_t>::max()), std::numeric_limits<int64_t>::min());
            ASSERT_EQ(unit_of(l, ts), static_cast<int64_t>(q)) << l.name << " " << ts;
        }
}


// ---- The field orders whose ids increase -------------------------------------------



TEST(SnowflakeLayout, GeneratorOrderRuleMatchesTheGenerator)
{
    // Every order of every field set with time (49 layouts): the rule accepts exactly those
    // whose ids increase when the generator runs, and its hint names one that does.
    const std::vector<std::pair<std::string, int>> all = {{"time", 20}, {"node", 3}, {"seq", 2}, {"rand", 2}};
    int accepted = 0, total = 0;
    for (unsigned mask = 1; mask < 16; ++mask) {
        if (!(mask & 1))
            continue;
        std::vector<int> idx;
        for (int i = 0; i < 4; ++i)
            if (mask & (1u << i))
                idx.push_back(i);
        do {
            std::string spec;
            for (int i : idx)
                spec += (spec.empty() ? "" : ",") + all[i].first + ":" + std::to_string(all[i].second);
            SCOPED_TRACE(spec);
            Layout l = parse_layout("x", 0, spec, kMs);
            ++total;
            const bool increase = ids_increase_when_run(l);
            EXPECT_EQ(generator_order_ok(l), increase);
            if (increase) {
                ++accepted;
                validate_generator_order(l, ErrorKind::InvalidParameter);
                continue;
            }
            Error e = expect_error(ErrorKind::Prerequisite, [&] { validate_generator_order(l, ErrorKind::Prerequisite); });
            EXPECT_EQ(std::string(e.what()), "snowflake layout \"x\" cannot issue increasing ids");
            EXPECT_NE(e.detail().find("comes before"), std::string::npos);
            const std::string hint = e.hint();
            const size_t q = hint.find('"');
            const std::string fixed = hint.substr(q + 1, hint.rfind('"') - q - 1);
            Layout f = parse_layout("x", 0, fixed, kMs);
            EXPECT_TRUE(generator_order_ok(f)) << fixed;
            EXPECT_TRUE(ids_increase_when_run(f)) << fixed;
            for (Field fl : {Field::Time, Field::Node, Field::Seq, Field::Rand})
                EXPECT_EQ(f[fl].width, l[fl].width);
        } while (std::next_permutation(idx.begin(), idx.end()));
    }
    EXPECT_EQ(total, 49);
    EXPECT_EQ(accepted, 16);
    for (const Layout& l : builtin_layouts())
        EXPECT_TRUE(generator_order_ok(l)) << l.name;
    // The two examples.
    EXPECT_EQ(expect_error(ErrorKind::InvalidParameter,
                           [] { validate_generator_order(parse_layout("seqfirst", 0, "seq:12,time:41,node:10", kMs),
                                                         ErrorKind::InvalidParameter); })
                  .hint(),
              "Use the fields in the order \"time:41,node:10,seq:12\".");
    Error e = expect_error(ErrorKind::InvalidParameter, [] {
        validate_generator_order(parse_layout("r", 0, "time:41,node:10,rand:4,seq:8", kMs), ErrorKind::InvalidParameter);
    });
    EXPECT_EQ(e.detail(), "The field \"rand\" comes before \"seq\". Ids increase only when time comes before seq "
                          "and rand, and seq before rand; node may go anywhere.");
    EXPECT_EQ(e.hint(), "Use the fields in the order \"time:41,node:10,seq:8,rand:4\".");
}



// The bounds of the planner's derived id conditions, against every id of small layouts and
// timestamps around each unit's edges: an id is inside the range exactly when its time
// compares as asked.
TEST(SnowflakeTimeBounds, MatchUnpackOnSmallLayouts)
{
    const char* specs[] = {"time:4,seq:3", "time:3,node:2,rand:1", "time:5"};
    const int64_t units[] = {1, 7, 1000};
    const int64_t epochs[] = {0, -5, 1000003};
    for (const char* spec : specs)
        for (int64_t unit_us : units)
            for (int64_t epoch : epochs) {
                Layout l = parse_layout("t", epoch, spec, unit_us);
                ASSERT_TRUE(time_first(l));
                const int64_t last = last_ts_us(l);
                for (int64_t ts = epoch - 2 * unit_us - 1; ts <= last + 2 * unit_us + 1; ts++) {
                    for (int excl = 0; excl < 2; excl++) {
                        int64_t lo = 0, hi = 0;
                        Bound bl = first_id_from(l, ts, excl, lo);
                        Bound bh = last_id_to(l, ts, excl, hi);
                        for (int64_t id = 0; id <= l.max_id(); id++) {
                            int64_t t = unpack(l, id).ts_us;
                            bool ge = excl ? t > ts : t >= ts, le = excl ? t < ts : t <= ts;
                            bool in_lo = bl == Bound::All || (bl == Bound::At && id >= lo);
                            bool in_hi = bh == Bound::All || (bh == Bound::At && id <= hi);
                            ASSERT_EQ(ge, in_lo) << spec << " unit " << unit_us << " ts " << ts << " id " << id;
                            ASSERT_EQ(le, in_hi) << spec << " unit " << unit_us << " ts " << ts << " id " << id;
                        }
                    }
                    if (unit_us == 1000 && ts > epoch + 2 * unit_us && ts < last - 2 * unit_us)
                        ts += unit_us - 5; // the inside of long units holds nothing new
                }
            }
    EXPECT_FALSE(time_first(parse_layout("t", 0, "node:2,time:4", 1)));
    EXPECT_TRUE(time_first(*builtin_layout("display60")));
}

// Timestamps at the int64 limits and layouts whose time field outlasts them saturate to
// All / None rather than overflow.
TEST(SnowflakeTimeBounds, ExtremesDoNotOverflow)
{
    Layout l = parse_layout("t", 0, "time:62,seq:1", 1);
    int64_t id = 0;
    EXPECT_EQ(first_id_from(l, std::numeric_limits<int64_t>::min(), false, id), Bound::All);
    EXPECT_EQ(last_id_to(l, std::numeric_limits<int64_t>::min(), true, id), Bound::None);
    EXPECT_EQ(first_id_from(l, std::numeric_limits<int64_t>::max(), true, id), Bound::None);
    EXPECT_EQ(last_id_to(l, std::numeric_limits<int64_t>::max(), false, id), Bound::All);
    const Layout& sf = *builtin_layout("snowflake");
    ASSERT_EQ(first_id_from(sf, sf.epoch_us + 1, false, id), Bound::At);
    EXPECT_EQ(id, int64_t{1} << 22);
    ASSERT_EQ(last_id_to(sf, sf.epoch_us + 1000, true, id), Bound::At);
    EXPECT_EQ(id, (int64_t{1} << 22) - 1);
}

// last_timed_id is where unpack stops accepting ids: every id up to it has a time, the next
// one has none (past the int64 microseconds, or past the layout's bits).
TEST(SnowflakeTimeBounds, LastTimedIdIsWhereUnpackStops)
{
    const int64_t day = int64_t{86400} * 1000000;
    std::vector<Layout> layouts = {*builtin_layout("snowflake"), *builtin_layout("display60"),
                                   parse_layout("t", 0, "time:62,seq:1", 1),
                                   parse_layout("d", 1700000000 * int64_t{1000000}, "time:40,seq:23", day),
                                   parse_layout("h", -5 * day, "time:50,rand:3", 3600 * int64_t{1000000}),
                                   parse_layout("s", 0, "time:20,node:3", 1000)};
    for (const Layout& l : layouts) {
        SCOPED_TRACE(l.name);
        int64_t last = last_timed_id(l);
        ASSERT_GE(last, 0);
        EXPECT_LE(last, l.max_id());
        EXPECT_NO_THROW(unpack(l, last));
        EXPECT_NO_THROW(unpack(l, 0));
        if (last < std::numeric_limits<int64_t>::max()) {
            EXPECT_THROW(unpack(l, last + 1), Error);
        }
    }
    EXPECT_LT(last_timed_id(layouts[3]), layouts[3].max_id()); // a day per unit outlasts int64 us
    EXPECT_EQ(last_timed_id(layouts[5]), layouts[5].max_id());
}
