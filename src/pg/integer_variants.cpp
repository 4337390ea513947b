// Exact smallint, integer and text variants of the functions users call with integer
// literals (src/sql/60_integer_variants.sql).
//
// PostgreSQL prefers an exact match in any schema of the search_path over a match through an
// implicit cast, so with only lexical_add(lexid, bigint) the call lexical_add(code, 1) (an
// integer) would resolve to a lexical_add(lexid, integer) planted in a schema later in the
// path. Each variant here is an exact match for its argument type; it widens the argument to
// what the original takes (bigint, or numeric for lexid_from_rank) and calls the original's
// C entry point with the same flinfo (so the original's per-call-site cache in fn_extra and
// its set-returning protocol work unchanged) and the same result info.
//
// The text variants exist for arguments of unknown type (NULL, '5', a parameter a driver
// sends untyped): with several integer variants none would match better than the others,
// and PostgreSQL resolves an unknown argument to the string category first. They read the
// number as the original's argument type would (int8in, numeric_in), so those calls give
// what they gave before the variants existed.
#include "pg_headers.h"

extern "C" {
#include "utils/fmgrprotos.h"
#include "utils/numeric.h"

// the originals (their PG_FUNCTION_INFO_V1 are in the files that define them)
Datum lexid_add_int8(PG_FUNCTION_ARGS);
Datum lexid_sub_int8(PG_FUNCTION_ARGS);
Datum lexical_add_text(PG_FUNCTION_ARGS);
Datum lexid_from_rank(PG_FUNCTION_ARGS);
Datum code_format(PG_FUNCTION_ARGS);
Datum idseq_encode(PG_FUNCTION_ARGS);
Datum idseq_scramble(PG_FUNCTION_ARGS);
Datum idseq_unscramble(PG_FUNCTION_ARGS);
Datum idseq_public_id(PG_FUNCTION_ARGS);
Datum snowflake_timestamp(PG_FUNCTION_ARGS);
Datum snowflake_unpack(PG_FUNCTION_ARGS);
}

namespace {

// The most arguments of any original above (idseq_encode, lexical_add_text).
constexpr int kMaxArgs = 4;

// Calls fn with fcinfo's arguments, argument argno replaced by value.
Datum call_with(FunctionCallInfo fcinfo, PGFunction fn, int argno, Datum value)
{
    Assert(fcinfo->nargs <= kMaxArgs && argno < fcinfo->nargs);
    LOCAL_FCINFO(inner, kMaxArgs);
    InitFunctionCallInfoData(*inner, fcinfo->flinfo, fcinfo->nargs, fcinfo->fncollation, fcinfo->context,
                             fcinfo->resultinfo);
    for (int i = 0; i < fcinfo->nargs; i++)
        inner->args[i] = fcinfo->args[i];
    inner->args[argno].value = value;
    inner->args[argno].isnull = false;
    Datum result = fn(inner);
    fcinfo->isnull = inner->isnull;
    return result;
}

// Argument argno as the bigint the original takes.
Datum as_int8(FunctionCallInfo fcinfo, int argno, Oid type)
{
    switch (type) {
    case INT2OID:
        return Int64GetDatum((int64) PG_GETARG_INT16(argno));
    case INT4OID:
        return Int64GetDatum((int64) PG_GETARG_INT32(argno));
    default:
        return DirectFunctionCall1(int8in, CStringGetDatum(text_to_cstring(PG_GETARG_TEXT_PP(argno))));
    }
}

// Argument argno as the numeric the original takes.
Datum as_numeric(FunctionCallInfo fcinfo, int argno, Oid type)
{
    switch (type) {
    case INT2OID:
        return NumericGetDatum(int64_to_numeric((int64) PG_GETARG_INT16(argno)));
    case INT4OID:
        return NumericGetDatum(int64_to_numeric((int64) PG_GETARG_INT32(argno)));
    case INT8OID:
        return NumericGetDatum(int64_to_numeric(PG_GETARG_INT64(argno)));
    default:
        return DirectFunctionCall3(numeric_in, CStringGetDatum(text_to_cstring(PG_GETARG_TEXT_PP(argno))),
                                   ObjectIdGetDatum(InvalidOid), Int32GetDatum(-1));
    }
}

} // namespace

// name_int2, name_int4, name_text: the variants of original whose argument argno is a bigint.
#define IDSEQ_INT8_VARIANT(name, original, argno, suffix, type)                                                     \
    extern "C" {                                                                                                    \
    PG_FUNCTION_INFO_V1(name##_##suffix);                                                                           \
    Datum name##_##suffix(PG_FUNCTION_ARGS)                                                                         \
    {                                                                                                               \
        return call_with(fcinfo, original, argno, as_int8(fcinfo, argno, type));                                   \
    }                                                                                                               \
    }
#define IDSEQ_INT8_VARIANTS(name, original, argno)                                                                  \
    IDSEQ_INT8_VARIANT(name, original, argno, int2, INT2OID)                                                        \
    IDSEQ_INT8_VARIANT(name, original, argno, int4, INT4OID)                                                        \
    IDSEQ_INT8_VARIANT(name, original, argno, text, TEXTOID)

IDSEQ_INT8_VARIANTS(lexid_add, lexid_add_int8, 1)
IDSEQ_INT8_VARIANTS(lexid_sub, lexid_sub_int8, 1)
IDSEQ_INT8_VARIANTS(lexical_add_text, lexical_add_text, 2)
IDSEQ_INT8_VARIANTS(code_format, code_format, 0)
IDSEQ_INT8_VARIANTS(idseq_encode, idseq_encode, 0)
IDSEQ_INT8_VARIANTS(idseq_scramble, idseq_scramble, 0)
IDSEQ_INT8_VARIANTS(idseq_unscramble, idseq_unscramble, 0)
IDSEQ_INT8_VARIANTS(idseq_public_id, idseq_public_id, 0)
IDSEQ_INT8_VARIANTS(snowflake_timestamp, snowflake_timestamp, 0)
IDSEQ_INT8_VARIANTS(snowflake_unpack, snowflake_unpack, 0)

// lexid_from_rank takes a numeric rank: variants for every integer type and text.
#define IDSEQ_RANK_VARIANT(suffix, type)                                                                            \
    extern "C" {                                                                                                    \
    PG_FUNCTION_INFO_V1(lexid_from_rank_##suffix);                                                                  \
    Datum lexid_from_rank_##suffix(PG_FUNCTION_ARGS)                                                                \
    {                                                                                                               \
        return call_with(fcinfo, lexid_from_rank, 0, as_numeric(fcinfo, 0, type));                                 \
    }                                                                                                               \
    }
IDSEQ_RANK_VARIANT(int2, INT2OID)
IDSEQ_RANK_VARIANT(int4, INT4OID)
IDSEQ_RANK_VARIANT(int8, INT8OID)
IDSEQ_RANK_VARIANT(text, TEXTOID)
