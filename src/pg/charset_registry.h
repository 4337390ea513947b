// Custom charsets and layouts live in the extension's registry tables; built-ins live in
// the core. This adapter looks charsets up by name or id and caches the definitions.
//
// Lifetime of a returned pointer. A charset's definition never changes once its row is
// committed (rows are final), so a committed definition is cached for the backend's life and
// its pointer never dangles. A definition this transaction itself inserted (not committed
// yet) lives until the (sub)transaction that loaded it ends. So a pointer is good for the
// current SQL function call; a pointer kept longer (fn_extra) must be checked against
// charset_generation(), which changes whenever any cached definition is freed or dropped.
#pragma once

#include "charset.h"

#include "pg_headers.h"

namespace idseq::pg {

// Built-in or registered charset by name; an unknown name is a 22023 error whose hint names
// at most five close names, and so is a name longer than any charset name can be.
//
// Every lookup reads the registry with a catalog-style index probe (no SQL), so it works in a
// walsender decoding with a historic snapshot, a parallel worker, FETCH from a WITH HOLD
// cursor and error reporting alike.
const Charset* charset_by_name(const char* name);
const Charset* charset_by_text(text* name);
// The same, remembered per call site in fn_extra (re-resolved when the name or
// charset_generation() changes): for functions called once per row with a constant charset
// argument.
const Charset* charset_by_text_cached(FunctionCallInfo fcinfo, text* name);
// By id, as stored in lexid values and type modifiers.
const Charset* charset_by_id(int32 id);
const Charset* charset_by_name_or_null(const char* name);
// Registers a custom charset (idseq_create_charset and the self-describing type modifier).
// With if_absent, an identical existing definition is accepted silently (no write, so this
// also works in a read-only transaction); creating one in a read-only transaction is a
// 25006 error.
const Charset* register_charset(const char* name, const char* symbols, bool case_insensitive, bool if_absent);
// Changes whenever a cached definition is freed or dropped from the cache: a copy of it kept
// next to a cached pointer (or a copy of a definition) tells whether that is still good.
namespace detail {
extern uint64 charset_generation;
}
inline uint64 charset_generation()
{
    return detail::charset_generation;
}

// The schema the extension is installed in; InvalidOid (missing_ok) or an error (55000)
// when it is not installed in this database.
Oid extension_schema_oid(bool missing_ok);

// A valid unique btree index of rel on column attnum alone (no expression, no predicate),
// found by its shape, not its name; InvalidOid if there is none. collation: the collation it
// orders by (a scan key on it must compare by the same one).
Oid unique_index_on(Relation rel, AttrNumber attnum, Oid& collation);

// "schema"."relname" for one of the extension's own relations.
char* extension_relation(const char* relname);

// Runs an internal query (search_path pinned); args are text, NULL-free. Not for registry
// reads, which must work where SQL cannot run. Returns SPI_processed; rows stay
// readable through SPI_tuptable until spi_end().
uint64 spi_query(const char* sql, int nargs, const char* const* args, bool read_only);
void spi_end();

} // namespace idseq::pg
