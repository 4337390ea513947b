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

#include "pg_headers.h"

extern "C" {
#include "executor/spi.h"
}

namespace idseq::pg {

// SPI_connect, then search_path = pg_catalog, pg_temp (a new GUC nest level).
void internal_sql_connect();
// Restores the caller's search_path, then SPI_finish.
void internal_sql_finish();

// The same for SQL that runs as another role, the way PostgreSQL runs maintenance as a
// table's owner (ANALYZE, VACUUM, CREATE INDEX, REFRESH MATERIALIZED VIEW): the current user
// becomes `role` in a security-restricted operation, so code the role controls (an index
// expression, a default, a policy) runs with that role's rights and cannot SET ROLE, RESET
// ROLE or SET SESSION AUTHORIZATION back to the caller's, nor create temporary objects or
// prepared statements that would outlive the operation; every setting changed in between
// (search_path included) is discarded by internal_sql_finish_as. The caller checks that
// its own user has the privileges of `role` (has_privs_of_role), so that this only lowers
// rights. With restricted = false the switch is only that of a SECURITY DEFINER function
// (SET ROLE and RESET ROLE are refused all the same, temporary objects may be made).
struct InternalSqlSaved {
    Oid user;
    int sec_context;
    int nest_level;
};
void internal_sql_connect_as(Oid role, bool restricted, InternalSqlSaved& saved);
void internal_sql_finish_as(const InternalSqlSaved& saved);

// Any successful SPI result code, for internal_sql_run's expected.
constexpr int internal_sql_any_ok = 0;
// SPI_execute_with_args (nulls may be null), checked against the expected SPI result code.
uint64 internal_sql_run(const char* sql, int nargs, Oid* types, Datum* values, const char* nulls, bool read_only,
                        int expected);

// A plan kept for the session (SPI_prepare, SPI_keepplan), made inside internal_sql_connect
// or internal_sql_connect_as: the plan cache makes it again after a change of what it reads,
// with the search_path it was made with.
SPIPlanPtr internal_sql_keep_plan(const char* sql, int nargs, Oid* types);
// SPI_execute_plan (nulls may be null), inside internal_sql_connect or _connect_as, checked
// against the expected SPI result code; the number of rows.
uint64 internal_sql_run_plan(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, int expected);

// Before idseq inserts a row for the caller (a charset, a layout): raises 42501 unless the
// current user may insert into the table relid, and holds at least one of the rights
// also_any on it when that is not 0 (what a LOCK TABLE before the insert takes), with a
// message naming what is created ("charset", name) and the hint given, instead of the
// statement's own "permission denied for table". Column privileges on every column of
// `columns` count as the table's INSERT.
void require_insert(Oid relid, const char* const* columns, int ncolumns, AclMode also_any, const char* what,
                    const char* name, const char* hint);

} // namespace idseq::pg
