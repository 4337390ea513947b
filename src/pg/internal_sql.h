// Every query idseq runs itself goes through this file: SPI, with search_path pinned to
// "pg_catalog, pg_temp" for the query's life.
//
// An internal query may run as a superuser (an event trigger, a default, a DDL helper). Under
// the caller's search_path, an unqualified operator or function in it (even "=" between two
// "char" values) could resolve to an object planted in a schema the caller put before
// pg_catalog, and run with the caller's rights. With the path pinned, only pg_catalog and the
// session's own temporary schema are searched (temporary schemas are never searched for
// functions or operators), and the extension's own objects are named with their schema.
//
//     internal_sql_connect();
//     SPI_execute...(...);              // or internal_sql_run()
//     internal_sql_finish();
//
// No C++ object owns anything across these calls; an error between them is cleaned up by the
// (sub)transaction abort, which unwinds SPI and the GUC nest level together.
#pragma once

#include "pg.h"

namespace idseq::pg {

// SPI_connect, then search_path = pg_catalog, pg_temp (a new GUC nest level).
void internal_sql_connect();
// Restores the caller's search_path, then SPI_finish.
void internal_sql_finish();
// SPI_execute_with_args (nulls may be null), checked against the expected SPI result code.
uint64 internal_sql_run(const char* sql, int nargs, Oid* types, Datum* values, const char* nulls, bool read_only,
                        int expected);

} // namespace idseq::pg
