// Partitions by date (src/sql/74_snowflake_partitions.sql): the one step that PL/pgSQL cannot take,
// running a statement as the parent table's owner.
//
// snowflake_create_partitions and snowflake_retire_partitions are often scheduled by a
// superuser for other roles' tables. The statements that touch such a table (CREATE TABLE ...
// PARTITION OF, the look into its default partition, DETACH PARTITION, DROP TABLE) run as
// the table's owner in a security-restricted operation, as PostgreSQL's own maintenance
// does: the new partitions belong to the owner, so ANALYZE, VACUUM and REINDEX later run
// their index expressions as the owner too, and any code of the owner's that runs now (index
// expressions folded while the partition's indexes are made, a row-level security policy of
// the default partition) has only the owner's rights and cannot switch back to the caller's
// with SET ROLE or RESET ROLE, which SET ROLE alone would allow.
#include "internal_sql.h"

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_class.h"
#include "utils/acl.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(idseq_sf_partition_as_owner);
}

// idseq_sf_partition_as_owner(parent regclass, command text) RETURNS bigint: runs command as
// parent's owner and returns the number of rows it processed. Only lowers rights: the caller
// must have the owner's privileges (be it, a member of it, or a superuser), as for ALTER
// TABLE on parent, and be allowed to SET ROLE to it, since the command acts as the owner
// (from PostgreSQL 16 on, a member may inherit a role's privileges without that right).
extern "C" Datum idseq_sf_partition_as_owner(PG_FUNCTION_ARGS)
{
    Oid relid = PG_GETARG_OID(0);
    char* command = text_to_cstring(PG_GETARG_TEXT_PP(1));
    HeapTuple tuple = SearchSysCache1(RELOID, ObjectIdGetDatum(relid));
    if (!HeapTupleIsValid(tuple))
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_TABLE), errmsg("relation with OID %u does not exist", relid)));
    Form_pg_class form = (Form_pg_class) GETSTRUCT(tuple);
    Oid owner = form->relowner;
    // A temporary parent's partitions are temporary too, which a security-restricted
    // operation may not create. Such a table is this session's alone (autovacuum never
    // processes it), and its statements switch users as a SECURITY DEFINER function does:
    // the owner's code cannot SET ROLE or RESET ROLE either; index builds restrict
    // themselves.
    bool restricted = form->relpersistence != RELPERSISTENCE_TEMP;
    char* relname = pstrdup(NameStr(form->relname));
    ReleaseSysCache(tuple);
    if (!has_privs_of_role(GetUserId(), owner) || !IDSEQ_CAN_SET_ROLE(GetUserId(), owner))
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of table %s", relname),
                        errdetail("Statements on it run as its owner, role \"%s\": the current user must have that "
                                  "role's privileges and be allowed to SET ROLE to it.",
                                  GetUserNameFromId(owner, false))));
    idseq::pg::InternalSqlSaved saved;
    idseq::pg::internal_sql_connect_as(owner, restricted, saved);
    uint64 processed =
        idseq::pg::internal_sql_run(command, 0, nullptr, nullptr, nullptr, false, idseq::pg::internal_sql_any_ok);
    idseq::pg::internal_sql_finish_as(saved);
    PG_RETURN_INT64((int64) processed);
}
