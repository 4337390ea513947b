#include "internal_sql.h"

extern "C" {
#include "executor/spi.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
}

namespace idseq::pg {

void internal_sql_connect()
{
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    // The same pinning PostgreSQL applies to a function with SET search_path (fmgr_security_definer).
    (void) NewGUCNestLevel();
    (void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
                             0, false);
}

void internal_sql_finish()
{
    // The level pushed by internal_sql_connect is the innermost one: everything that ran in
    // between either returned (and popped its own levels) or raised an error that never
    // reaches here. NewGUCNestLevel() reports the next level; ours is the one below it.
    int next = NewGUCNestLevel();
    AtEOXact_GUC(true, next);     // pops the empty level just pushed
    AtEOXact_GUC(true, next - 1); // pops ours: the caller's search_path is back
    SPI_finish();
}

void internal_sql_connect_as(Oid role, bool restricted, InternalSqlSaved& saved)
{
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    // As DefineIndex and ExecRefreshMatView do: the user first, then a GUC nest level whose
    // changes are all thrown away at the end. An error in between is cleaned up by the
    // (sub)transaction abort, which restores the user, the security context and the settings.
    GetUserIdAndSecContext(&saved.user, &saved.sec_context);
    SetUserIdAndSecContext(role, saved.sec_context | (restricted ? SECURITY_RESTRICTED_OPERATION
                                                                   : SECURITY_LOCAL_USERID_CHANGE));
    saved.nest_level = NewGUCNestLevel();
    (void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET, PGC_S_SESSION, GUC_ACTION_SAVE, true,
                             0, false);
}

void internal_sql_finish_as(const InternalSqlSaved& saved)
{
    AtEOXact_GUC(false, saved.nest_level);
    SetUserIdAndSecContext(saved.user, saved.sec_context);
    SPI_finish();
}

uint64 internal_sql_run(const char* sql, int nargs, Oid* types, Datum* values, const char* nulls, bool read_only,
                        int expected)
{
    int rc = SPI_execute_with_args(sql, nargs, types, values, nulls, read_only, 0);
    if (expected == internal_sql_any_ok ? rc < 0 : rc != expected)
        elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
    return SPI_processed;
}

SPIPlanPtr internal_sql_keep_plan(const char* sql, int nargs, Oid* types)
{
    SPIPlanPtr p = SPI_prepare(sql, nargs, types);
    if (!p)
        elog(ERROR, "SPI_prepare failed: %s", SPI_result_code_string(SPI_result));
    if (SPI_keepplan(p) != 0)
        elog(ERROR, "SPI_keepplan failed");
    return p;
}

uint64 internal_sql_run_plan(SPIPlanPtr plan, Datum* values, const char* nulls, bool read_only, int expected)
{
    int rc = SPI_execute_plan(plan, values, nulls, read_only, 0);
    if (expected == internal_sql_any_ok ? rc < 0 : rc != expected)
        elog(ERROR, "SPI_execute_plan failed: %s", SPI_result_code_string(rc));
    return SPI_processed;
}

void require_insert(Oid relid, const char* const* columns, int ncolumns, AclMode also_any, const char* what,
                    const char* name, const char* hint)
{
    const Oid user = GetUserId();
    bool may_insert = pg_class_aclcheck(relid, user, ACL_INSERT) == ACLCHECK_OK;
    if (!may_insert && ncolumns > 0) {
        may_insert = true;
        for (int i = 0; i < ncolumns && may_insert; i++) {
            AttrNumber att = get_attnum(relid, columns[i]);
            may_insert = att != InvalidAttrNumber && pg_attribute_aclcheck(relid, att, user, ACL_INSERT) == ACLCHECK_OK;
        }
    }
    if (may_insert && (also_any == 0 || pg_class_aclmask(relid, user, also_any, ACLMASK_ANY) != 0))
        return;
    const char* rel = get_rel_name(relid);
    const char* role = GetUserNameFromId(user, false);
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied to create %s \"%s\"", what, name),
                    may_insert ? errdetail("Creating a %s locks table %s against other creators, which role \"%s\" "
                                           "may not do (it takes UPDATE, DELETE or TRUNCATE on the table).",
                                           what, rel, role)
                               : errdetail("Creating a %s inserts a row into table %s, which role \"%s\" may not "
                                           "insert into.",
                                           what, rel, role),
                    errhint("%s", hint)));
}

} // namespace idseq::pg
