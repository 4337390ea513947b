// Where untyped lexid values (charset id 0, see lexid_type.cpp) may live, and how they meet
// typed ones.
//
// 1. Never in storage. The event trigger idseq_lexid_column_guard (ddl_command_end) refuses
//    a stored attribute of type lexid or lexid[] without a type modifier: columns of tables,
//    partitioned tables, materialized views and foreign tables, attributes of composite
//    types, domains over plain lexid and range types over lexid (a range drops its
//    subtype's modifier). Views and function results are not stored and stay free.
// 2. Compared with a typed expression, an untyped one is read in the typed one's charset.
//    The comparison functions do that row by row, but btree scans also compare the scan
//    keys with each other (to drop redundant keys, and to sort and de-duplicate the
//    elements of code IN (...) / = ANY(...)), and a merge join sorts each side by itself:
//    both without the column's charset. So the planner hook rewrites, in every query, an
//    untyped operand of a lexid operator whose other operand has a charset (its type
//    modifier, also through a domain over lexid(cs): charset_of) into an explicit
//    coercion to that charset (what lexid_coerce does for an assignment): constants are
//    folded at plan time, parameters are coerced once per execution, and the index machinery
//    only ever compares values of the column's charset. Results are unchanged; only the
//    place where the literal is read moves.
// 3. Never compared with each other at run time (lexid_type.cpp raises 42804). The hook
//    types both operands of a comparison of two untyped values as base36, and ORDER BY keys
//    (in a junk column) and min/max arguments (min_max_as_written) without a charset too,
//    so that both print the values as written. What the hook does not see is an error
//    where two untyped values meet, never a guess: plans made before the library was
//    loaded, constants beside code + 0, and the bodies of SQL functions, which the planner
//    inlines after the hook has run (their constants beside a typed column are read row by
//    row in its charset; compared with each other by an index scan or a hashed IN list,
//    they raise the error).
// 4. Assigned to a lexid(cs) column through nextval_lexid, an untyped seed is read in cs
//    (type_seed): the event trigger rewrites stored column and domain defaults once, when
//    they are created, and the planner hook types INSERT ... VALUES and UPDATE ... SET.
//    ALTER TABLE ... ADD COLUMN evaluates its default for the rows already there before
//    ddl_command_end: the same function, fired at ddl_command_start, types the seed in the
//    command's parse tree first (type_raw_seeds). A default whose seed has a charset other
//    than the column's (what ALTER COLUMN ... TYPE leaves) is refused (check_seed_charset):
//    every insert that used it would draw a sequence value and then fail.
#include "lexid.h"
#include "lexid_type.h" // first: it includes the core, which must precede PostgreSQL headers
#include "pg_headers.h"

#include <cstring>
#include <string_view>

extern "C" {
#include "access/htup_details.h"
#include "utils/inval.h"
#include "utils/fmgroids.h"
#include "utils/builtins.h"
#include "access/table.h"
#include "access/genam.h"
#include "catalog/pg_aggregate.h"
#include "catalog/pg_attrdef.h"
#include "catalog/indexing.h"
#include "access/relation.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "miscadmin.h"
#include "nodes/plannodes.h"
#include "optimizer/optimizer.h"
#include "optimizer/planner.h"
#include "parser/parse_coerce.h"
#include "parser/parse_expr.h"
#include "parser/parse_func.h"
#include "parser/parse_type.h"
#include "utils/ruleutils.h"
#include "utils/array.h"
#include "utils/guc.h"
#include "utils/lsyscache.h"
#include "utils/partcache.h"
#include "utils/rel.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(idseq_lexid_column_guard);
}

#include "internal_sql.h"
#include "core_call.h"
#include "charset_registry.h"
#include "module.h"

namespace {

// ---------------------------------------------------------------- the event trigger

// Column names an ALTER TABLE / ALTER TYPE adds or retypes: only those are checked, so
// that other changes to a table that still has a plain lexid column from 1.0 or 1.1 keep
// working until it is converted.
// Whether the command is an ALTER TABLE that changes a column's type.
bool retypes_column(Node* parsetree)
{
    if (!parsetree || !IsA(parsetree, AlterTableStmt))
        return false;
    ListCell* lc;
    foreach (lc, ((AlterTableStmt*) parsetree)->cmds)
        if (((AlterTableCmd*) lfirst(lc))->subtype == AT_AlterColumnType)
            return true;
    return false;
}

// ALTER DOMAIN changes no stored attribute: none (its default is typed like a column's).
Datum altered_columns(Node* parsetree, bool* isnull)
{
    *isnull = true;
    if (!parsetree || (!IsA(parsetree, AlterTableStmt) && !IsA(parsetree, AlterDomainStmt)))
        return (Datum) 0;
    List* names = NIL;
    ListCell* lc;
    List* cmds = IsA(parsetree, AlterTableStmt) ? ((AlterTableStmt*) parsetree)->cmds : NIL;
    foreach (lc, cmds) {
        AlterTableCmd* cmd = (AlterTableCmd*) lfirst(lc);
        if (cmd->subtype == AT_AddColumn && cmd->def && IsA(cmd->def, ColumnDef))
            names = lappend(names, cstring_to_text(((ColumnDef*) cmd->def)->colname));
        else if (cmd->subtype == AT_AlterColumnType && cmd->name)
            names = lappend(names, cstring_to_text(cmd->name));
    }
    int n = list_length(names);
    Datum* elems = (Datum*) palloc(sizeof(Datum) * (n ? n : 1));
    int i = 0;
    foreach (lc, names)
        elems[i++] = PointerGetDatum(lfirst(lc));
    *isnull = false;
    return PointerGetDatum(construct_array(elems, n, TEXTOID, -1, false, TYPALIGN_INT));
}

// Every stored attribute, domain and range the command created or changed that would hold
// lexid values without a charset: kind, object, column (or null).
const char* kOffenders = R"sql(
WITH cmd AS (
    SELECT DISTINCT classid, objid FROM pg_catalog.pg_event_trigger_ddl_commands()
), rel AS (
    SELECT objid AS relid FROM cmd WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
    UNION
    SELECT t.typrelid FROM cmd JOIN pg_catalog.pg_type t
        ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
       AND t.oid OPERATOR(pg_catalog.=) cmd.objid
     WHERE t.typrelid OPERATOR(pg_catalog.<>) 0
)
SELECT CASE c.relkind WHEN 'c' THEN 'attribute' ELSE 'column' END,
       CASE c.relkind WHEN 'r' THEN 'table' WHEN 'p' THEN 'table' WHEN 'm' THEN 'materialized view'
                      WHEN 'f' THEN 'foreign table' ELSE 'type' END,
       c.oid, a.attname::pg_catalog.text
  FROM rel JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) rel.relid
  JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) c.oid
 WHERE c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,m,f,c}'::pg_catalog."char"[])
   AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped
   AND a.atttypid OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2]) AND a.atttypmod OPERATOR(pg_catalog.<) 0
   AND ($3 IS NULL OR a.attname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($3))
UNION ALL
SELECT 'domain', 'domain', t.oid, NULL
  FROM cmd JOIN pg_catalog.pg_type t
    ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
   AND t.oid OPERATOR(pg_catalog.=) cmd.objid
 WHERE t.typtype OPERATOR(pg_catalog.=) 'd' AND t.typtypmod OPERATOR(pg_catalog.<) 0
   AND t.typbasetype OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2])
UNION ALL
SELECT 'range', 'range type', r.rngtypid, NULL
  FROM cmd JOIN pg_catalog.pg_range r
    ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
   AND r.rngtypid OPERATOR(pg_catalog.=) cmd.objid
 WHERE r.rngsubtype OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2])
)sql";

// Partitioned tables the command created: their keys are checked from the relcache, which
// knows the type modifier of an expression key (the catalogs keep only its opclass).
const char* kPartitioned = R"sql(
SELECT DISTINCT p.partrelid
  FROM pg_catalog.pg_event_trigger_ddl_commands() cmd
  JOIN pg_catalog.pg_partitioned_table p ON p.partrelid OPERATOR(pg_catalog.=) cmd.objid
 WHERE cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
)sql";

// A partition key of type lexid without a charset: the bounds would be untyped values,
// compared with each other to order the partitions, and pruning would compare them with
// the rows' values in another charset.
void check_partition_keys(Oid lexid)
{
    idseq::pg::internal_sql_run(kPartitioned, 0, nullptr, nullptr, nullptr, false, SPI_OK_SELECT);
    Oid array = get_array_type(lexid);
    for (uint64 i = 0; i < SPI_processed; i++) {
        bool isnull;
        Oid relid = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull));
        Relation rel = relation_open(relid, AccessShareLock);
        PartitionKey key = RelationGetPartitionKey(rel);
        for (int k = 0; key && k < key->partnatts; k++) {
            if ((key->parttypid[k] == lexid || key->parttypid[k] == array) && key->parttypmod[k] < 0)
                ereport(ERROR, (errcode(ERRCODE_INVALID_TABLE_DEFINITION),
                                errmsg("partition key %d of table \"%s\" has type lexid without a charset", k + 1,
                                       RelationGetRelationName(rel)),
                                errdetail("The partition bounds would be compared without the charset of the rows."),
                                errhint("Cast the key expression to the charset meant, for example "
                                        "(t::lexid(base36)).")));
        }
        relation_close(rel, AccessShareLock);
    }
}

bool type_seed(Node* expr, Oid lexid, int32 cs, bool restoring);
void check_seed_charset(Node* expr, Oid lexid, int32 cs, bool restoring, const char* what, bool retyping);
void type_raw_seeds(Node* parsetree, Oid lexid);

// Column defaults of the tables the command created or changed, and of their partitions and
// children (ALTER TABLE ... SET DEFAULT recurses to them but reports only the table named),
// with the column's type.
const char* kDefaults = R"sql(
WITH RECURSIVE cmd(objid) AS (
    SELECT objid FROM pg_catalog.pg_event_trigger_ddl_commands()
     WHERE classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
    UNION
    -- ALTER TYPE ... ALTER ATTRIBUTE ... CASCADE retypes the columns of the typed tables
    -- (CREATE TABLE ... OF type), and reports only the composite type's relation
    SELECT c.oid FROM pg_catalog.pg_event_trigger_ddl_commands() t
      JOIN pg_catalog.pg_class comp ON comp.oid OPERATOR(pg_catalog.=) t.objid
      JOIN pg_catalog.pg_class c ON c.reloftype OPERATOR(pg_catalog.=) comp.reltype
     WHERE t.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_class'::pg_catalog.regclass
       AND comp.relkind OPERATOR(pg_catalog.=) 'c'
    UNION
    SELECT i.inhrelid FROM pg_catalog.pg_inherits i JOIN cmd ON i.inhparent OPERATOR(pg_catalog.=) cmd.objid
)
SELECT d.oid, a.atttypid, a.atttypmod
  FROM cmd
  JOIN pg_catalog.pg_attrdef d ON d.adrelid OPERATOR(pg_catalog.=) cmd.objid
  JOIN pg_catalog.pg_attribute a
    ON a.attrelid OPERATOR(pg_catalog.=) d.adrelid AND a.attnum OPERATOR(pg_catalog.=) d.adnum
)sql";

// A column default nextval_lexid(seq, '222222') on a lexid(noambig) column: the seed, written
// without a charset, is read in the column's charset, once, and the stored default holds the
// typed seed ('222222'::lexid(noambig), which pg_dump then shows). Read as base36 on its own
// it would make every INSERT (and COPY, which evaluates defaults without the planner) draw a
// sequence value and then fail to store a base36 value. A seed that does not read in the
// column's charset fails here, when the default is created (22P02), except in a restore
// (check_function_bodies off, as pg_dump's scripts set it), where refusing the table would
// lose it and its rows: there the default stays as written, with a warning.
// The rows of an internal query whose ncols columns are all of by-value types (oid, int4),
// row after row, in the caller's memory context: the work on them then runs after
// internal_sql_finish, under the caller's search_path, which messages and the deparsed text
// of a default must use.
Datum* query_values(const char* sql, int ncols, uint64* n)
{
    idseq::pg::internal_sql_connect();
    idseq::pg::internal_sql_run(sql, 0, nullptr, nullptr, nullptr, false, SPI_OK_SELECT);
    *n = SPI_processed;
    Datum* values = (Datum*) SPI_palloc(sizeof(Datum) * ncols * (*n ? *n : 1));
    for (uint64 i = 0; i < *n; i++)
        for (int c = 0; c < ncols; c++) {
            bool isnull;
            values[i * ncols + c] = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, c + 1, &isnull);
        }
    idseq::pg::internal_sql_finish();
    return values;
}

void type_seed_defaults(Oid lexid, bool retyping)
{
    uint64 n;
    Datum* rows = query_values(kDefaults, 3, &n);
    if (n == 0)
        return;
    Oid* defs = (Oid*) palloc(sizeof(Oid) * n);
    int32* charsets = (int32*) palloc(sizeof(int32) * n);
    for (uint64 i = 0; i < n; i++) {
        defs[i] = DatumGetObjectId(rows[i * 3]);
        Oid type = DatumGetObjectId(rows[i * 3 + 1]);
        int32 typmod = DatumGetInt32(rows[i * 3 + 2]);
        if (typmod < 0)
            type = getBaseTypeAndTypmod(type, &typmod); // a domain over lexid(cs)
        charsets[i] = type == lexid ? typmod : -1;
    }
    Relation rel = table_open(AttrDefaultRelationId, RowExclusiveLock);
    for (uint64 i = 0; i < n; i++) {
        if (charsets[i] < 0)
            continue;
        ScanKeyData key;
        ScanKeyInit(&key, Anum_pg_attrdef_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(defs[i]));
        SysScanDesc scan = systable_beginscan(rel, AttrDefaultOidIndexId, true, NULL, 1, &key);
        HeapTuple tup = systable_getnext(scan);
        bool isnull = true;
        Datum bin = HeapTupleIsValid(tup) ? heap_getattr(tup, Anum_pg_attrdef_adbin, RelationGetDescr(rel), &isnull)
                                          : (Datum) 0;
        Node* expr = isnull ? nullptr : (Node*) stringToNode(TextDatumGetCString(bin));
        if (expr) {
            Form_pg_attrdef ad = (Form_pg_attrdef) GETSTRUCT(tup);
            check_seed_charset(expr, lexid, charsets[i], !check_function_bodies,
                               psprintf("column \"%s\" of table \"%s\"", get_attname(ad->adrelid, ad->adnum, false),
                                        get_rel_name(ad->adrelid)),
                               retyping);
        }
        if (expr && type_seed(expr, lexid, charsets[i], !check_function_bodies)) {
            Datum values[Natts_pg_attrdef] = {0};
            bool nulls[Natts_pg_attrdef] = {false};
            bool replace[Natts_pg_attrdef] = {false};
            values[Anum_pg_attrdef_adbin - 1] = CStringGetTextDatum(nodeToString(expr));
            replace[Anum_pg_attrdef_adbin - 1] = true;
            HeapTuple copy = heap_modify_tuple(tup, RelationGetDescr(rel), values, nulls, replace);
            CatalogTupleUpdate(rel, &copy->t_self, copy);
            CacheInvalidateRelcacheByRelid(((Form_pg_attrdef) GETSTRUCT(tup))->adrelid);
        }
        systable_endscan(scan);
    }
    table_close(rel, RowExclusiveLock);
    CommandCounterIncrement();
}

// Domains the command created or changed that have a default.
const char* kDomainDefaults = R"sql(
SELECT DISTINCT t.oid
  FROM pg_catalog.pg_event_trigger_ddl_commands() cmd
  JOIN pg_catalog.pg_type t
    ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
   AND t.oid OPERATOR(pg_catalog.=) cmd.objid
 WHERE t.typtype OPERATOR(pg_catalog.=) 'd' AND t.typdefaultbin IS NOT NULL
)sql";

// The default of a domain over lexid(cs) (CREATE DOMAIN ... DEFAULT, ALTER DOMAIN ... SET
// DEFAULT): its untyped seed is read in cs, as a column's. A column of the domain without a
// default of its own uses it, also when ALTER TABLE ... ADD COLUMN fills the rows already
// there. Both forms PostgreSQL keeps are rewritten: typdefaultbin, and typdefault (the text
// of the default).
void type_seed_domain_defaults(Oid lexid)
{
    uint64 n;
    Datum* domains = query_values(kDomainDefaults, 1, &n);
    if (n == 0)
        return;
    Relation rel = table_open(TypeRelationId, RowExclusiveLock);
    for (uint64 i = 0; i < n; i++) {
        int32 cs = -1;
        if (getBaseTypeAndTypmod(DatumGetObjectId(domains[i]), &cs) != lexid || cs < 0)
            continue;
        HeapTuple tup = SearchSysCacheCopy1(TYPEOID, domains[i]);
        if (!HeapTupleIsValid(tup))
            continue;
        bool isnull;
        Datum bin = heap_getattr(tup, Anum_pg_type_typdefaultbin, RelationGetDescr(rel), &isnull);
        if (isnull)
            continue;
        Node* expr = (Node*) stringToNode(TextDatumGetCString(bin));
        check_seed_charset(expr, lexid, cs, !check_function_bodies,
                           psprintf("domain \"%s\"", format_type_be(DatumGetObjectId(domains[i]))), false);
        if (!type_seed(expr, lexid, cs, !check_function_bodies))
            continue;
        Datum values[Natts_pg_type] = {0};
        bool nulls[Natts_pg_type] = {false};
        bool replace[Natts_pg_type] = {false};
        values[Anum_pg_type_typdefaultbin - 1] = CStringGetTextDatum(nodeToString(expr));
        replace[Anum_pg_type_typdefaultbin - 1] = true;
        values[Anum_pg_type_typdefault - 1] = CStringGetTextDatum(deparse_expression(expr, NIL, false, false));
        replace[Anum_pg_type_typdefault - 1] = true;
        HeapTuple copy = heap_modify_tuple(tup, RelationGetDescr(rel), values, nulls, replace);
        CatalogTupleUpdate(rel, &copy->t_self, copy);
    }
    table_close(rel, RowExclusiveLock);
    CommandCounterIncrement();
}

// A copy of an SPI result string in the context that was current before SPI_connect, so
// that it outlives SPI_finish.
char* outer_copy(const char* str)
{
    size_t n = strlen(str) + 1;
    char* copy = (char*) SPI_palloc(n);
    memcpy(copy, str, n);
    return copy;
}

} // namespace

extern "C" {

Datum idseq_lexid_column_guard(PG_FUNCTION_ARGS)
{
    if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("idseq_lexid_column_guard() must be called as an event trigger")));
    EventTriggerData* trig = (EventTriggerData*) fcinfo->context;
    Oid lexid = get_function_sibling_type(fcinfo->flinfo->fn_oid, "lexid");
    if (!OidIsValid(lexid))
        PG_RETURN_VOID();
    if (strcmp(trig->event, "ddl_command_start") == 0) {
        type_raw_seeds(trig->parsetree, lexid);
        PG_RETURN_VOID();
    }
    Oid types[3] = {OIDOID, OIDOID, TEXTARRAYOID};
    Datum values[3] = {ObjectIdGetDatum(lexid), ObjectIdGetDatum(get_array_type(lexid)), (Datum) 0};
    bool names_null;
    values[2] = altered_columns(trig->parsetree, &names_null);
    type_seed_defaults(lexid, retypes_column(trig->parsetree));
    // Only these commands create a domain or change its default.
    if (trig->parsetree && (IsA(trig->parsetree, CreateDomainStmt) || IsA(trig->parsetree, AlterDomainStmt)))
        type_seed_domain_defaults(lexid);
    idseq::pg::internal_sql_connect();
    if (!names_null && ARR_DIMS(DatumGetArrayTypeP(values[2]))[0] == 0 && ARR_NDIM(DatumGetArrayTypeP(values[2])) == 0) {
        idseq::pg::internal_sql_finish();
        PG_RETURN_VOID(); // an ALTER TABLE that adds or retypes no column
    }
    char nulls[4] = {' ', ' ', names_null ? 'n' : ' ', '\0'};
    // Not read-only: the query must see the catalog rows of the command just run.
    idseq::pg::internal_sql_run(kOffenders, 3, types, values, nulls, false, SPI_OK_SELECT);
    if (SPI_processed > 0) {
        // The object is named as the caller's search_path shows it (qualified only where it
        // is not visible): read what the message needs, restore the path, then name it.
        HeapTuple t = SPI_tuptable->vals[0];
        TupleDesc d = SPI_tuptable->tupdesc;
        char* what = SPI_getvalue(t, d, 1);
        char* kind = SPI_getvalue(t, d, 2);
        bool isnull;
        Oid object_oid = DatumGetObjectId(SPI_getbinval(t, d, 3, &isnull));
        char* column = SPI_getvalue(t, d, 4);
        int more = (int) SPI_processed - 1;
        what = what ? outer_copy(what) : nullptr;
        kind = kind ? outer_copy(kind) : nullptr;
        column = column ? outer_copy(column) : nullptr;
        idseq::pg::internal_sql_finish();
        const char* object = strcmp(what, "domain") == 0 || strcmp(what, "range") == 0
                                 ? format_type_be(object_oid)
                                 : DatumGetCString(DirectFunctionCall1(regclassout, ObjectIdGetDatum(object_oid)));
        const char* detail = "A stored lexid value must name its charset, so that all the values of a column compare, "
                             "hash and print alike.";
        if (strcmp(what, "domain") == 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_COLUMN_DEFINITION),
                            errmsg("domain \"%s\" over lexid must name a charset", object), errdetail("%s", detail),
                            errhint("Declare it as lexid(base36), or as lexid(name) of the charset meant.")));
        if (strcmp(what, "range") == 0)
            ereport(ERROR, (errcode(ERRCODE_INVALID_COLUMN_DEFINITION),
                            errmsg("range type \"%s\" over lexid cannot name a charset", object),
                            errdetail("A range type ignores the type modifier of its subtype. %s", detail),
                            errhint("Create a domain over lexid(base36), or lexid(name) of the charset meant, and a "
                                    "range type over that domain.")));
        ereport(ERROR, (errcode(ERRCODE_INVALID_COLUMN_DEFINITION),
                        errmsg("%s \"%s\" of %s \"%s\" has type lexid without a charset", what, column, kind, object),
                        more > 0 ? errdetail("%s %d more %s also lack%s a charset.", detail, more,
                                             more == 1 ? what : "columns", more == 1 ? "s" : "")
                                 : errdetail("%s", detail),
                        errhint("Declare the %s as lexid(base36), or as lexid(name) of the charset meant; in CREATE "
                                "TABLE AS, cast the expression, for example code::lexid(base36).",
                                what)));
    }
    check_partition_keys(lexid);
    idseq::pg::internal_sql_finish();
    PG_RETURN_VOID();
}

} // extern "C"

// ---------------------------------------------------------------- the planner hook

namespace {

planner_hook_type prev_planner = nullptr;

// Whether t is this extension's lexid (the only type whose input function is our lexid_in).
bool is_lexid(Oid t)
{
    static Oid known = InvalidOid;
    if (t == known && OidIsValid(t))
        return true;
    if (t < FirstNormalObjectId)
        return false;
    HeapTuple tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(t));
    if (!HeapTupleIsValid(tp))
        return false;
    Form_pg_type typ = (Form_pg_type) GETSTRUCT(tp);
    bool yes = strcmp(NameStr(typ->typname), "lexid") == 0 && typ->typtype == TYPTYPE_BASE;
    Oid input = typ->typinput;
    ReleaseSysCache(tp);
    if (yes) {
        HeapTuple fp = SearchSysCache1(PROCOID, ObjectIdGetDatum(input));
        yes = HeapTupleIsValid(fp) && strcmp(NameStr(((Form_pg_proc) GETSTRUCT(fp))->proname), "lexid_in") == 0 &&
              ((Form_pg_proc) GETSTRUCT(fp))->prolang == ClanguageId;
        if (HeapTupleIsValid(fp))
            ReleaseSysCache(fp);
    }
    if (yes)
        known = t;
    return yes;
}

// The charset every non-null value of e has whatever the row (its type modifier), or -1.
// PostgreSQL hides the modifier in two places that idseq must see through: a domain over
// lexid(cs) keeps it in its base type (a column, parameter or function result of the domain
// has modifier -1), and the implicit cast of a domain value to lexid is a RelabelType
// without a modifier. A relabelled or domain-checked value keeps its bytes, and so the
// charset id stored in them: seeing through those nodes is exact.
int32 charset_of(Node* e, Oid lexid)
{
    Oid array = get_array_type(lexid);
    while (e != nullptr) {
        int32 m = exprTypmod(e);
        Oid t = exprType(e);
        if (m < 0 && t != lexid && t != array) {
            m = -1;
            t = getBaseTypeAndTypmod(t, &m);
        }
        if (t != lexid && t != array)
            return -1;
        if (m >= 0)
            return m;
        if (IsA(e, RelabelType))
            e = (Node*) ((RelabelType*) e)->arg;
        else if (IsA(e, CoerceToDomain))
            e = (Node*) ((CoerceToDomain*) e)->arg;
        else
            return -1;
    }
    return -1;
}

Node* coerce_typmod(Node* expr, Oid type, int32 typmod)
{
    Node* out = coerce_to_target_type(NULL, expr, type, type, typmod, COERCION_IMPLICIT, COERCE_IMPLICIT_CAST, -1);
    return out ? out : expr;
}

const int32 kBase36 = 5; // the charset id of base36, how an untyped value reads on its own

bool untyped_datum(Datum d)
{
    Lexid* v = (Lexid*) PG_DETOAST_DATUM_PACKED(d);
    return lexid_charset_id(v) == 0;
}

// Whether expr is untyped whatever the row: a constant without a charset (or an array of
// them), a cast from text (or any type read through its output) without a type modifier,
// an ARRAY[...] of those. A parameter or a column of a view may hold a typed value at run
// time (an SQL function's argument, a PL/pgSQL variable): it is not untyped here.
bool is_untyped(Node* e, Oid lexid)
{
    if (e == nullptr || charset_of(e, lexid) >= 0)
        return false;
    while (IsA(e, RelabelType))
        e = (Node*) ((RelabelType*) e)->arg;
    if (IsA(e, Const)) {
        Const* c = (Const*) e;
        if (c->constisnull)
            return true;
        if (c->consttype == lexid)
            return untyped_datum(c->constvalue);
        if (c->consttype != get_array_type(lexid))
            return false;
        ArrayType* arr = DatumGetArrayTypeP(c->constvalue);
        Datum* elems;
        bool* nulls;
        int n;
        int16 typlen;
        bool typbyval;
        char typalign;
        get_typlenbyvalalign(lexid, &typlen, &typbyval, &typalign);
        deconstruct_array(arr, lexid, typlen, typbyval, typalign, &elems, &nulls, &n);
        for (int i = 0; i < n; i++)
            if (!nulls[i] && !untyped_datum(elems[i]))
                return false;
        return true;
    }
    if (IsA(e, CoerceViaIO))
        return ((CoerceViaIO*) e)->resulttype == lexid;
    if (IsA(e, FuncExpr)) {
        FuncExpr* f = (FuncExpr*) e;
        if (f->funcresulttype != lexid || list_length(f->args) < 1 ||
            (f->funcformat != COERCE_EXPLICIT_CAST && f->funcformat != COERCE_IMPLICIT_CAST))
            return false;
        Oid from = exprType((Node*) linitial(f->args));
        return from == TEXTOID || from == VARCHAROID || from == BPCHAROID || from == NAMEOID;
    }
    if (IsA(e, ArrayExpr)) {
        ListCell* lc;
        foreach (lc, ((ArrayExpr*) e)->elements)
            if (!is_untyped((Node*) lfirst(lc), lexid))
                return false;
        return true;
    }
    return false;
}

// The operands of a lexid comparison. One has a charset and the other none: the other is
// coerced to that charset. Both are untyped: both are read as base36, as the contract says,
// before any machinery compares them with each other. An operand typed only at run time
// (code + 0, lexid_from_rank(...), a parameter) leaves an untyped one to be read row by
// row; what then meets another untyped value raises an error rather than guess.
void type_operands(List* args, Oid lexid, Oid scalar_type, Oid right_type)
{
    Node* l = (Node*) linitial(args);
    Node* r = (Node*) lsecond(args);
    int32 ml = charset_of(l, lexid), mr = charset_of(r, lexid);
    if (ml >= 0 && mr < 0)
        lsecond(args) = coerce_typmod(r, right_type, ml);
    else if (mr >= 0 && ml < 0)
        linitial(args) = coerce_typmod(l, scalar_type, mr);
    else if (ml < 0 && mr < 0 && is_untyped(l, lexid) && is_untyped(r, lexid)) {
        linitial(args) = coerce_typmod(l, scalar_type, kBase36);
        lsecond(args) = coerce_typmod(r, right_type, kBase36);
    }
}

Node* strip_relabel(Node* e)
{
    while (e && IsA(e, RelabelType))
        e = (Node*) ((RelabelType*) e)->arg;
    return e;
}


// The schema of the extension's objects: that of the type lexid.
Oid lexid_namespace(Oid lexid)
{
    HeapTuple tp = SearchSysCache1(TYPEOID, ObjectIdGetDatum(lexid));
    if (!HeapTupleIsValid(tp))
        return InvalidOid;
    Oid nsp = ((Form_pg_type) GETSTRUCT(tp))->typnamespace;
    ReleaseSysCache(tp);
    return nsp;
}

// nextval_lexid(seq, seed) is seed + n: its result has the seed's charset. Where that result
// fills a lexid(cs) column (a column default, INSERT ... VALUES, UPDATE ... SET), an untyped
// seed is read in cs, the same rule as an untyped value compared with a typed one; read as
// base36 on its own, every call would draw a sequence value and then fail to be stored.
// expr is what is assigned: seen through relabelling, domain checks and the coercion to
// lexid(cs). Returns whether it typed a seed (in place). When restoring, a constant seed
// that does not read in cs is left as it is (with a warning) instead of raising 22P02.
// The call nextval_lexid(seq, seed) of this extension that expr assigns (seen through
// relabelling, domain checks and the coercion to lexid(cs)), or null.
FuncExpr* nextval_lexid_call(Node* expr, Oid lexid)
{
    for (;;) {
        int32 typmod;
        if (expr && IsA(expr, RelabelType))
            expr = (Node*) ((RelabelType*) expr)->arg;
        else if (expr && IsA(expr, CoerceToDomain))
            expr = (Node*) ((CoerceToDomain*) expr)->arg;
        else if (expr && exprIsLengthCoercion(expr, &typmod) && IsA(expr, FuncExpr))
            expr = (Node*) linitial(((FuncExpr*) expr)->args);
        else
            break;
    }
    if (expr == nullptr || !IsA(expr, FuncExpr) || list_length(((FuncExpr*) expr)->args) != 2)
        return nullptr;
    FuncExpr* f = (FuncExpr*) expr;
    if (f->funcresulttype != lexid || get_func_namespace(f->funcid) != lexid_namespace(lexid))
        return nullptr;
    char* name = get_func_name(f->funcid);
    if (name == nullptr || strcmp(name, "nextval_lexid") != 0)
        return nullptr;
    return f;
}

// Where argument n (0: seq, 1: seed) of nextval_lexid call f is: in named notation
// (nextval_lexid(seed => ..., seq => ...), whose arguments the planner puts in order only
// later) the value of the NamedArgExpr numbered n, else the n-th argument (positional
// arguments come first).
Node** arg_slot(FuncExpr* f, int n)
{
    ListCell* lc;
    foreach (lc, f->args) {
        Node* arg = (Node*) lfirst(lc);
        if (IsA(arg, NamedArgExpr) && ((NamedArgExpr*) arg)->argnumber == n)
            return (Node**) &((NamedArgExpr*) arg)->arg;
    }
    return (Node**) &list_nth_cell(f->args, n)->ptr_value;
}

Node** seed_slot(FuncExpr* f)
{
    return arg_slot(f, 1);
}

bool type_seed(Node* expr, Oid lexid, int32 cs, bool restoring)
{
    FuncExpr* f = nextval_lexid_call(expr, lexid);
    if (f == nullptr)
        return false;
    Node** slot = seed_slot(f);
    Node* seed = *slot;
    if (!is_untyped(seed, lexid))
        return false;
    Node* bare = strip_relabel(seed);
    if (restoring && IsA(bare, Const) && !((Const*) bare)->constisnull) {
        Lexid* v = (Lexid*) PG_DETOAST_DATUM_PACKED(((Const*) bare)->constvalue);
        const idseq::Charset* charset = idseq::pg::charset_by_id(cs);
        std::string_view spelling((const char*) lexid_digits(v), lexid_length(v));
        bool readable = false;
        idseq::pg::run([&] { readable = idseq::lex::valid(*charset, spelling); });
        if (!readable) {
            ereport(WARNING, (errcode(ERRCODE_INVALID_TEXT_REPRESENTATION),
                              errmsg("seed \"%s\" of a column default does not read in charset \"%s\"",
                                     pnstrdup(spelling.data(), spelling.size()), charset->name().c_str()),
                              errdetail("The default is kept as written, so inserts that use it fail."),
                              errhint("Set a default whose seed names the charset, for example "
                                      "nextval_lexid(seq, '...'::lexid(%s)).",
                                      charset->name().c_str())));
            return false;
        }
    }
    if (IsA(bare, Const)) {
        Const* c = (Const*) copyObjectImpl(bare);
        c->consttype = lexid;
        c->consttypmod = cs;
        if (!c->constisnull) { // the untyped spelling read in cs
            Lexid* v = (Lexid*) PG_DETOAST_DATUM_PACKED(c->constvalue);
            if (lexid_charset_id(v) == 0)
                c->constvalue = PointerGetDatum(lexid_resolve(v, cs));
        }
        *slot = (Node*) c;
    } else {
        *slot = coerce_typmod(seed, lexid, cs);
    }
    return true;
}

// A default nextval_lexid(seq, seed) whose seed has a charset other than cs, the charset of
// the column or domain it fills (what): every insert that used it would draw a sequence
// value and then fail to store a value of the seed's charset. ALTER COLUMN ... TYPE leaves
// one behind (it keeps the default and coerces its result to the new type); so does a seed
// typed by hand for another charset. Refused (42804), except in a restore, as in type_seed.
// The seed is not re-read in cs: its spelling as written is gone (base36 folds case), and
// the user knows which value is meant; the hint shows the default with the stored spelling.
void check_seed_charset(Node* expr, Oid lexid, int32 cs, bool restoring, const char* what, bool retyping)
{
    FuncExpr* f = nextval_lexid_call(expr, lexid);
    if (f == nullptr)
        return;
    Node* seed = *seed_slot(f);
    int32 seed_cs = charset_of(seed, lexid);
    if (seed_cs < 0 || seed_cs == cs)
        return;
    // The spelling of a constant seed (under its coercion), or "..." when it is computed.
    Node* c = seed;
    int32 ignored;
    while (c && (IsA(c, RelabelType) || (IsA(c, FuncExpr) && exprIsLengthCoercion(c, &ignored))))
        c = IsA(c, RelabelType) ? (Node*) ((RelabelType*) c)->arg : (Node*) linitial(((FuncExpr*) c)->args);
    const char* spelling = "...";
    if (c && IsA(c, Const) && !((Const*) c)->constisnull && ((Const*) c)->consttype == lexid) {
        Oid out;
        bool varlena;
        getTypeOutputInfo(lexid, &out, &varlena);
        spelling = OidOutputFunctionCall(out, ((Const*) c)->constvalue);
    }
    const char* target = quote_identifier(idseq::pg::charset_by_id(cs)->name().c_str());
    ereport(restoring ? WARNING : ERROR,
            (errcode(ERRCODE_DATATYPE_MISMATCH),
             errmsg("seed of the default of %s has charset \"%s\", not \"%s\"", what,
                    idseq::pg::charset_by_id(seed_cs)->name().c_str(), idseq::pg::charset_by_id(cs)->name().c_str()),
             restoring ? errdetail("The default is kept as written, so inserts that use it fail.")
                       : errdetail("Every insert that used the default would draw a sequence value and then fail to "
                                   "store it."),
             errhint("Set a default whose seed is in charset \"%s\", for example nextval_lexid(%s, %s::lexid(%s))%s",
                     idseq::pg::charset_by_id(cs)->name().c_str(),
                     deparse_expression(*arg_slot(f, 0), NIL, false, false),
                     quote_literal_cstr(spelling),
                     target,
                     retyping ? ", with ALTER COLUMN ... SET DEFAULT in the same ALTER TABLE as ALTER COLUMN ... TYPE."
                              : ".")));
}

// ALTER TABLE ... ADD COLUMN c lexid(cs) DEFAULT nextval_lexid(seq, 'aB') on a table that has
// rows evaluates the default for each of them in its rewrite, before ddl_command_end could
// type the stored default: the seed would be read as base36. At ddl_command_start the seed
// of such a default (or of its DEFAULT clause, which the parse tree still holds as a
// constraint) becomes a cast to lexid(cs) in the command's own parse tree, when a parsed copy
// shows it to be the untyped seed of this extension's nextval_lexid: the rewrite, the stored
// default and the partitions and children ALTER TABLE recurses to then all read it in cs.
// A seed that does not read in cs fails here, before any value is drawn (22P02). standard_
// ProcessUtility has copied a cached statement before this runs, so only this execution
// sees the change.
void type_raw_seed(Node** slot, Oid lexid, int32 cs)
{
    while (*slot && IsA(*slot, TypeCast))
        slot = &((TypeCast*) *slot)->arg;
    if (*slot == nullptr || !IsA(*slot, FuncCall))
        return;
    FuncCall* call = (FuncCall*) *slot;
    if (list_length(call->args) != 2 || call->agg_star || call->func_variadic ||
        strcmp(strVal(llast(call->funcname)), "nextval_lexid") != 0)
        return;
    ParseState* pstate = make_parsestate(NULL);
    Node* expr = transformExpr(pstate, (Node*) copyObjectImpl(call), EXPR_KIND_COLUMN_DEFAULT);
    free_parsestate(pstate);
    if (!type_seed(expr, lexid, cs, !check_function_bodies))
        return;
    // The seed as written: the argument named seed, else the second (positional arguments
    // come before named ones).
    Node** seed = (Node**) &lsecond(call->args);
    ListCell* lc;
    foreach (lc, call->args)
        if (IsA(lfirst(lc), NamedArgExpr) && strcmp(((NamedArgExpr*) lfirst(lc))->name, "seed") == 0)
            seed = (Node**) &lfirst(lc);
    if (IsA(*seed, NamedArgExpr))
        seed = (Node**) &((NamedArgExpr*) *seed)->arg;
    TypeCast* cast = makeNode(TypeCast);
    cast->arg = *seed;
    cast->typeName = makeTypeNameFromOid(lexid, cs);
    cast->location = -1;
    *seed = (Node*) cast;
}

void type_raw_seeds(Node* parsetree, Oid lexid)
{
    if (!parsetree || !IsA(parsetree, AlterTableStmt))
        return;
    AlterTableStmt* stmt = (AlterTableStmt*) parsetree;
    if (!OidIsValid(RangeVarGetRelid(stmt->relation, NoLock, true)))
        return; // ALTER TABLE reports it (or IF EXISTS skips it)
    ListCell* lc;
    foreach (lc, stmt->cmds) {
        AlterTableCmd* cmd = (AlterTableCmd*) lfirst(lc);
        if (cmd->subtype != AT_AddColumn || !cmd->def || !IsA(cmd->def, ColumnDef))
            continue;
        ColumnDef* def = (ColumnDef*) cmd->def;
        int32 cs = -1;
        Type type = def->typeName ? LookupTypeName(NULL, def->typeName, &cs, true) : nullptr;
        if (type == nullptr)
            continue; // ALTER TABLE reports it
        Oid typid = typeTypeId(type);
        ReleaseSysCache(type);
        if (cs < 0)
            typid = getBaseTypeAndTypmod(typid, &cs); // a domain over lexid(cs)
        if (typid != lexid || cs < 0)
            continue;
        type_raw_seed(&def->raw_default, lexid, cs);
        ListCell* cc;
        foreach (cc, def->constraints) {
            Constraint* con = (Constraint*) lfirst(cc);
            if (IsA(con, Constraint) && con->contype == CONSTR_DEFAULT)
                type_raw_seed(&con->raw_expr, lexid, cs);
        }
    }
}

// lexical_add(expr, 0): an untyped value read as base36, a typed one unchanged. For values
// that machinery sorts among themselves with nothing typed to serve (ORDER BY, min, max).
Node* base36_unless_typed(Node* expr, Oid lexid)
{
    Oid nsp = lexid_namespace(lexid);
    if (charset_of(expr, lexid) >= 0 || !OidIsValid(nsp))
        return expr;
    Oid argtypes[2] = {lexid, INT8OID};
    Oid fn = LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup("lexical_add"))), 2,
                            argtypes, true);
    if (!OidIsValid(fn))
        return expr;
    Const* zero = makeConst(INT8OID, -1, InvalidOid, sizeof(int64), Int64GetDatum(0), false, FLOAT8PASSBYVAL);
    return (Node*) makeFuncExpr(fn, lexid, list_make2(expr, zero), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

// ORDER BY keys (of the query, of its windows) over lexid without a charset sort as base36:
// the key moves to a junk column base36_unless_typed(expr), so that the output keeps the
// spelling. Not in set operations (their sort keys must be output columns), nor for GROUP
// BY and DISTINCT keys (the output is the key): untyped values meeting there raise the
// error of lexid_type.cpp.
void type_sort_keys(Query* q)
{
    if (q->commandType != CMD_SELECT || q->groupClause || q->distinctClause || q->groupingSets || q->setOperations)
        return;
    List* extra = NIL;
    int resno = list_length(q->targetList);
    ListCell* lc;
    foreach (lc, q->targetList) {
        TargetEntry* te = (TargetEntry*) lfirst(lc);
        Oid t = exprType((Node*) te->expr);
        if (te->ressortgroupref == 0 || !is_lexid(t) || charset_of((Node*) te->expr, t) >= 0)
            continue;
        if (te->resjunk) {
            te->expr = (Expr*) base36_unless_typed((Node*) te->expr, t);
            continue;
        }
        // A copy would be evaluated apart from the output: not for volatile or set-returning
        // keys (their untyped values meeting each other stay the run-time error).
        if (contain_volatile_functions((Node*) te->expr) || expression_returns_set((Node*) te->expr))
            continue;
        TargetEntry* junk = makeTargetEntry((Expr*) base36_unless_typed((Node*) copyObjectImpl(te->expr), t), ++resno,
                                            NULL, true);
        junk->ressortgroupref = te->ressortgroupref;
        te->ressortgroupref = 0;
        extra = lappend(extra, junk);
    }
    q->targetList = list_concat(q->targetList, extra);
}

bool is_comparison(Oid fn)
{
    static const char* const names[] = {"lexid_cmp", "lexid_larger", "lexid_smaller", "lexid_eq", "lexid_ne",
                                        "lexid_lt",  "lexid_le",     "lexid_gt",      "lexid_ge"};
    char* name = get_func_name(fn);
    if (name == nullptr)
        return false;
    for (const char* n : names)
        if (strcmp(name, n) == 0)
            return true;
    return false;
}

// min(v) and max(v) over values without a charset at plan time compare them as base36 and
// give the value as written: the aggregate becomes lexid_min_as_written(lexical_add(v, 0), v)
// (lexid_max_as_written), which orders by the first argument and returns the second
// (lexid_type.cpp). Keeping min/max and typing their argument instead would print the base36
// spelling; comparing untyped values as base36 inside min/max would read as base36 the typed
// values that a Citus coordinator receives from its workers as text. Not for DISTINCT or
// ordered arguments, nor for a volatile or set-returning argument (it would be evaluated
// twice), nor before the extension has the aggregates (1.2): those are typed as base36, and
// print in base36's spelling. False when the caller is to do that.
bool min_max_as_written(Aggref* agg, const char* name, Oid lexid)
{
    TargetEntry* te = (TargetEntry*) linitial(agg->args);
    if (charset_of((Node*) te->expr, lexid) >= 0)
        return true; // typed: nothing to do
    Oid nsp = lexid_namespace(lexid);
    if (agg->aggdistinct || agg->aggorder || agg->aggkind != AGGKIND_NORMAL || !OidIsValid(nsp) ||
        contain_volatile_functions((Node*) te->expr) || expression_returns_set((Node*) te->expr))
        return false;
    Oid argtypes[2] = {lexid, lexid};
    const char* as_written = strcmp(name, "min") == 0 ? "lexid_min_as_written" : "lexid_max_as_written";
    Oid fn = LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup(as_written))), 2,
                            argtypes, true);
    if (!OidIsValid(fn))
        return false;
    Node* key = base36_unless_typed((Node*) copyObjectImpl(te->expr), lexid);
    te->resno = 2;
    agg->args = list_make2(makeTargetEntry((Expr*) key, 1, NULL, false), te);
    agg->aggargtypes = list_make2_oid(lexid, lexid);
    agg->aggfnoid = fn;
    return true;
}

bool type_untyped_operands(Node* node, void* context);
// The walker as the old-style pointer the tree walkers of PostgreSQL 15 take.
#define WALKER IDSEQ_WALKER(type_untyped_operands)

bool type_untyped_operands(Node* node, void* context)
{
    if (node == nullptr)
        return false;
    if (IsA(node, Query)) {
        Query* q = (Query*) node;
        bool r = query_tree_walker(q, WALKER, context, 0);
        type_sort_keys(q);
        return r;
    }
    if (IsA(node, OpExpr) || IsA(node, DistinctExpr) || IsA(node, NullIfExpr)) {
        OpExpr* op = (OpExpr*) node;
        if (list_length(op->args) == 2) {
            Oid t = exprType((Node*) linitial(op->args));
            if (t == exprType((Node*) lsecond(op->args)) && is_lexid(t))
                type_operands(op->args, t, t, t);
        }
    } else if (IsA(node, ScalarArrayOpExpr)) {
        ScalarArrayOpExpr* saop = (ScalarArrayOpExpr*) node;
        if (list_length(saop->args) == 2) {
            Oid t = exprType((Node*) linitial(saop->args));
            Oid at = exprType((Node*) lsecond(saop->args));
            if (is_lexid(t) && at == get_array_type(t))
                type_operands(saop->args, t, t, at);
        }
    } else if (IsA(node, FuncExpr) && list_length(((FuncExpr*) node)->args) == 3) {
        // lexid(value, typmod, explicit): the assignment to a lexid(cs) column or a cast.
        int32 cs;
        FuncExpr* f = (FuncExpr*) node;
        if (is_lexid(f->funcresulttype) && exprIsLengthCoercion(node, &cs) && cs >= 0)
            (void) type_seed((Node*) linitial(f->args), f->funcresulttype, cs, false);
    } else if (IsA(node, FuncExpr) && list_length(((FuncExpr*) node)->args) == 2) {
        // The comparison functions called by name: lexid_cmp('a', 'B') as 'a' < 'B'.
        FuncExpr* f = (FuncExpr*) node;
        Oid t = exprType((Node*) linitial(f->args));
        if (t == exprType((Node*) lsecond(f->args)) && is_lexid(t) && is_comparison(f->funcid))
            type_operands(f->args, t, t, t);
    } else if (IsA(node, Aggref)) {
        Aggref* agg = (Aggref*) node;
        char* name = get_func_name(agg->aggfnoid);
        if (name && (strcmp(name, "min") == 0 || strcmp(name, "max") == 0) && list_length(agg->args) == 1) {
            TargetEntry* te = (TargetEntry*) linitial(agg->args);
            Oid t = exprType((Node*) te->expr);
            if (is_lexid(t) && !min_max_as_written(agg, name, t))
                te->expr = (Expr*) base36_unless_typed((Node*) te->expr, t);
        }
    }
    return expression_tree_walker(node, WALKER, context);
}

PlannedStmt* lexid_planner(Query* parse, const char* query_string, int cursor_options, ParamListInfo bound_params)
{
    (void) type_untyped_operands((Node*) parse, nullptr);
    return prev_planner ? prev_planner(parse, query_string, cursor_options, bound_params)
                        : standard_planner(parse, query_string, cursor_options, bound_params);
}

} // namespace

void idseq_lexid_plan_init(void)
{
    prev_planner = planner_hook;
    planner_hook = lexid_planner;
}
