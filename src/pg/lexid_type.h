// The stored form of lexid, shared by the adapters that make or read values.
#pragma once

#include "charset.h"

#include "pg_headers.h"

// varlena header, int32 charset id (unaligned: values may be short-header packed), digits.
typedef struct varlena Lexid;
#define LEXID_HDRSZ (VARHDRSZ + sizeof(int32))

static inline int32 lexid_charset_id(const Lexid* v)
{
    int32 id;
    memcpy(&id, VARDATA_ANY(v), sizeof(int32));
    return id;
}
static inline const uint8* lexid_digits(const Lexid* v)
{
    return (const uint8*) VARDATA_ANY(v) + sizeof(int32);
}
static inline size_t lexid_length(const Lexid* v)
{
    return VARSIZE_ANY_EXHDR(v) - sizeof(int32);
}
#define PG_GETARG_LEXID_PP(n) ((Lexid*) PG_DETOAST_DATUM_PACKED(PG_GETARG_DATUM(n)))

Lexid* lexid_make(int32 charset_id, const uint8* digits, size_t n);
// A typed value: v itself, or an untyped literal read in charset_id (0: base36).
Lexid* lexid_resolve(Lexid* v, int32 charset_id);
// v + n in shortlex order (22003 before the first value or past 1024 symbols).
Lexid* lexid_add(Lexid* v, int64 n);
