// Snowflake ids and version 7 UUIDs: snowflake_uuid, snowflake_from_uuid, idseq_uuidv7 and
// idseq_uuidv7_bound. The arithmetic is the core's (src/core/uuidv7.h); idseq_uuidv7 issues
// an id of the UUIDv7 layout (48-bit Unix milliseconds, 12-bit counter) through the snowflake
// generator, with every guarantee of snowflake_nextval, and fills rand_b with 62 random bits
// from a per-backend ChaCha20 keystream seeded from pg_strong_random (see random_bits).
#include "chacha20.h"
#include "sf_internal.h"
#include "uuidv7.h"

#include <cstring>

extern "C" {
#include "miscadmin.h"
#include "utils/lsyscache.h"
#include "utils/uuid.h"

PG_FUNCTION_INFO_V1(snowflake_uuid);
PG_FUNCTION_INFO_V1(snowflake_from_uuid);
PG_FUNCTION_INFO_V1(idseq_uuidv7);
PG_FUNCTION_INFO_V1(idseq_uuidv7_bound);
}

using namespace snowflake;

namespace {

// The per-backend generator of rand_b. pg_strong_random() (OpenSSL's RAND_bytes) costs some
// 8-10 us a call, twenty times a snowflake id, so it only seeds a ChaCha20 keystream with fast
// key erasure (src/core/chacha20.h): seeded lazily in the backend itself (never in the
// postmaster, whose children would share its state), again when the process is not the one
// that seeded it, and again after kReseedOutputs outputs.
idseq::KeystreamRng rng; // plain data: no destructor a longjmp could skip
int rng_pid = 0;
constexpr uint64 kReseedOutputs = 1 << 20;

uint64 random_bits()
{
    if (unlikely(!rng.seeded() || rng_pid != MyProcPid || rng.outputs() >= kReseedOutputs)) {
        uint8 seed[idseq::KeystreamRng::kSeedBytes];
        if (!pg_strong_random(seed, sizeof seed))
            ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate random values")));
        run([&] { rng.seed(seed); });
        explicit_bzero(seed, sizeof seed);
        rng_pid = MyProcPid;
    }
    uint64 v = 0;
    run([&] { v = rng.next(); });
    return v;
}

Datum uuid_datum(const idseq::Uuid& u)
{
    pg_uuid_t* out = (pg_uuid_t*) palloc(sizeof(pg_uuid_t));
    static_assert(sizeof(out->data) == sizeof(idseq::Uuid), "a UUID is 16 bytes");
    memcpy(out->data, u.data(), sizeof out->data);
    return UUIDPGetDatum(out);
}

} // namespace

extern "C" {

// snowflake_uuid(id bigint, layout text DEFAULT 'snowflake') RETURNS uuid
Datum snowflake_uuid(PG_FUNCTION_ARGS)
{
    const int64 id = PG_GETARG_INT64(0);
    Entry* e = entry_for(fcinfo, 1);
    idseq::Uuid u{};
    run([&] { u = idseq::id_to_uuid(e->layout, id); });
    return uuid_datum(u);
}

// snowflake_from_uuid(u uuid, layout text DEFAULT 'snowflake') RETURNS bigint
Datum snowflake_from_uuid(PG_FUNCTION_ARGS)
{
    const pg_uuid_t* in = PG_GETARG_UUID_P(0);
    Entry* e = entry_for(fcinfo, 1);
    idseq::Uuid u;
    memcpy(u.data(), in->data, sizeof in->data);
    int64 id = 0;
    run([&] { id = idseq::uuid_to_id(e->layout, u); });
    PG_RETURN_INT64(id);
}

// idseq_uuidv7_bound(ts timestamptz) RETURNS uuid
Datum idseq_uuidv7_bound(PG_FUNCTION_ARGS)
{
    const TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
    int64 us;
    if (!unix_us_from_pg(ts, us))
        ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                        errmsg("timestamp \"%s\" is out of range for a version 7 UUID", timestamptz_to_str(ts)),
                        errdetail("A version 7 UUID holds finite times from 1970 to 10889.")));
    idseq::Uuid u{};
    run([&] { u = idseq::uuidv7_bound(us); });
    return uuid_datum(u);
}

// idseq_uuidv7() RETURNS uuid. rand_b takes 62 bits of a CSPRNG, as gen_random_uuid() takes
// its 122: the UUIDs stay unguessable beyond their time and counter.
Datum idseq_uuidv7(PG_FUNCTION_ARGS)
{
    FnCache* fc = fn_cache(fcinfo); // the entry, kept across the calls of a query
    if (!fc->entry || !fc->entry->valid)
        fc->entry = uuidv7_entry(get_func_namespace(fcinfo->flinfo->fn_oid));
    Entry* e = fc->entry;
    const int64 id = issue_id(e, "idseq_uuidv7()");
    const uint64 rnd = random_bits();
    idseq::Uuid u{};
    run([&] { u = idseq::uuidv7_from_id(id, rnd); });
    return uuid_datum(u);
}

} // extern "C"
