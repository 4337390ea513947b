#include "core_call.h"
#include "quoted_text.h"

#include <cstring>

#include "pg_headers.h"

extern "C" {
#include "mb/pg_wchar.h"
}

namespace idseq::pg {

static void copy_text(char* dst, size_t cap, const char* src) noexcept
{
    size_t n = src ? std::strlen(src) : 0;
    if (n >= cap) { // cut on a UTF-8 character boundary
        n = cap - 1;
        while (n > 0 && (static_cast<unsigned char>(src[n]) & 0xC0) == 0x80)
            --n;
    }
    if (n)
        std::memcpy(dst, src, n);
    dst[n] = '\0';
}

void note_database_encoding() noexcept
{
    idseq::set_messages_utf8(GetDatabaseEncoding() == PG_UTF8);
}

void capture(CaughtError& slot, ErrorKind kind, const char* message, const char* detail, const char* hint) noexcept
{
    slot.kind = kind;
    copy_text(slot.message, sizeof slot.message, message);
    copy_text(slot.detail, sizeof slot.detail, detail);
    copy_text(slot.hint, sizeof slot.hint, hint);
}

static int sqlstate(ErrorKind kind)
{
    switch (kind) {
    case ErrorKind::Syntax:
        return ERRCODE_INVALID_TEXT_REPRESENTATION;
    case ErrorKind::OutOfRange:
        return ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE;
    case ErrorKind::InvalidParameter:
        return ERRCODE_INVALID_PARAMETER_VALUE;
    case ErrorKind::Prerequisite:
        return ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE;
    case ErrorKind::Limit:
        return ERRCODE_PROGRAM_LIMIT_EXCEEDED;
    case ErrorKind::Mismatch:
        return ERRCODE_DATATYPE_MISMATCH;
    case ErrorKind::Duplicate:
        return ERRCODE_DUPLICATE_OBJECT;
    case ErrorKind::UndefinedObject:
        return ERRCODE_UNDEFINED_OBJECT;
    case ErrorKind::OutOfMemory:
        return ERRCODE_OUT_OF_MEMORY;
    case ErrorKind::Internal:
        break;
    }
    return ERRCODE_INTERNAL_ERROR;
}

void report(const CaughtError& slot)
{
    if (slot.kind == ErrorKind::OutOfMemory)
        ereport(ERROR, (errcode(ERRCODE_OUT_OF_MEMORY), errmsg("out of memory")));
    ereport(ERROR, (errcode(sqlstate(slot.kind)), errmsg_internal("%s", slot.message),
                    slot.detail[0] ? errdetail_internal("%s", slot.detail) : 0,
                    slot.hint[0] ? errhint("%s", slot.hint) : 0));
    pg_unreachable();
}

} // namespace idseq::pg
