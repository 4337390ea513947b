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
//    untyped operand of a lexid operator whose other operand has a charset into an explicit
//    coercion to that charset (what lexid_coerce does for an assignment): constants are
//    folded at plan time, parameters are coerced once per execution, and the index machinery
//    only ever compares values of the column's charset. Results are unchanged; only the
//    place where the literal is read moves.
#include "pg.h"

#include <cstring>

extern "C" {
#include "access/htup_details.h"
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/extension.h"
#include "executor/spi.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "optimizer/planner.h"
#include "parser/parse_coerce.h"
#include "utils/array.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(idseq_lexid_column_guard);
}

#include "module.h"

namespace {

// ---------------------------------------------------------------- the event trigger

// Column names an ALTER TABLE / ALTER TYPE adds or retypes: only those are checked, so
// that other changes to a table that still has a plain lexid column from 1.0 or 1.1 keep
// working until it is converted.
Datum altered_columns(Node* parsetree, bool* isnull)
{
    *isnull = true;
    if (!parsetree || !IsA(parsetree, AlterTableStmt))
        return (Datum) 0;
    List* names = NIL;
    ListCell* lc;
    foreach (lc, ((AlterTableStmt*) parsetree)->cmds) {
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
       c.oid::pg_catalog.regclass::pg_catalog.text, a.attname::pg_catalog.text
  FROM rel JOIN pg_catalog.pg_class c ON c.oid OPERATOR(pg_catalog.=) rel.relid
  JOIN pg_catalog.pg_attribute a ON a.attrelid OPERATOR(pg_catalog.=) c.oid
 WHERE c.relkind OPERATOR(pg_catalog.=) ANY ('{r,p,m,f,c}'::pg_catalog."char"[])
   AND a.attnum OPERATOR(pg_catalog.>) 0 AND NOT a.attisdropped
   AND a.atttypid OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2]) AND a.atttypmod OPERATOR(pg_catalog.<) 0
   AND ($3 IS NULL OR a.attname::pg_catalog.text OPERATOR(pg_catalog.=) ANY ($3))
UNION ALL
SELECT 'domain', 'domain', t.oid::pg_catalog.regtype::pg_catalog.text, NULL
  FROM cmd JOIN pg_catalog.pg_type t
    ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
   AND t.oid OPERATOR(pg_catalog.=) cmd.objid
 WHERE t.typtype OPERATOR(pg_catalog.=) 'd' AND t.typtypmod OPERATOR(pg_catalog.<) 0
   AND t.typbasetype OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2])
UNION ALL
SELECT 'range', 'range type', r.rngtypid::pg_catalog.regtype::pg_catalog.text, NULL
  FROM cmd JOIN pg_catalog.pg_range r
    ON cmd.classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_type'::pg_catalog.regclass
   AND r.rngtypid OPERATOR(pg_catalog.=) cmd.objid
 WHERE r.rngsubtype OPERATOR(pg_catalog.=) ANY (ARRAY[$1, $2])
)sql";

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
    Oid types[3] = {OIDOID, OIDOID, TEXTARRAYOID};
    Datum values[3] = {ObjectIdGetDatum(lexid), ObjectIdGetDatum(get_array_type(lexid)), (Datum) 0};
    bool names_null;
    values[2] = altered_columns(trig->parsetree, &names_null);
    if (!names_null && ARR_DIMS(DatumGetArrayTypeP(values[2]))[0] == 0 && ARR_NDIM(DatumGetArrayTypeP(values[2])) == 0)
        PG_RETURN_VOID(); // an ALTER TABLE that adds or retypes no column
    char nulls[4] = {' ', ' ', names_null ? 'n' : ' ', '\0'};
    if (SPI_connect() != SPI_OK_CONNECT)
        elog(ERROR, "SPI_connect failed");
    // Not read-only: the query must see the catalog rows of the command just run.
    int rc = SPI_execute_with_args(kOffenders, 3, types, values, nulls, false, 0);
    if (rc != SPI_OK_SELECT)
        elog(ERROR, "SPI_execute_with_args failed: %s", SPI_result_code_string(rc));
    if (SPI_processed > 0) {
        HeapTuple t = SPI_tuptable->vals[0];
        TupleDesc d = SPI_tuptable->tupdesc;
        char* what = SPI_getvalue(t, d, 1);
        char* kind = SPI_getvalue(t, d, 2);
        char* object = SPI_getvalue(t, d, 3);
        char* column = SPI_getvalue(t, d, 4);
        int more = (int) SPI_processed - 1;
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
    SPI_finish();
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

Node* coerce_typmod(Node* expr, Oid type, int32 typmod)
{
    Node* out = coerce_to_target_type(NULL, expr, type, type, typmod, COERCION_IMPLICIT, COERCE_IMPLICIT_CAST, -1);
    return out ? out : expr;
}

// If one operand has a charset and the other none, coerce the other to that charset.
void type_operands(List* args, Oid scalar_type, Oid right_type)
{
    Node* l = (Node*) linitial(args);
    Node* r = (Node*) lsecond(args);
    int32 ml = exprTypmod(l), mr = exprTypmod(r);
    if (ml >= 0 && mr < 0)
        lsecond(args) = coerce_typmod(r, right_type, ml);
    else if (mr >= 0 && ml < 0)
        linitial(args) = coerce_typmod(l, scalar_type, mr);
}

bool type_untyped_operands(Node* node, void* context);
// The walker as the old-style pointer the tree walkers of PostgreSQL 15 take.
#define WALKER ((bool (*)())(void (*)(void)) type_untyped_operands)

bool type_untyped_operands(Node* node, void* context)
{
    if (node == nullptr)
        return false;
    if (IsA(node, Query))
        return query_tree_walker((Query*) node, WALKER, context, 0);
    if (IsA(node, OpExpr) || IsA(node, DistinctExpr) || IsA(node, NullIfExpr)) {
        OpExpr* op = (OpExpr*) node;
        if (list_length(op->args) == 2) {
            Oid t = exprType((Node*) linitial(op->args));
            if (t == exprType((Node*) lsecond(op->args)) && is_lexid(t))
                type_operands(op->args, t, t);
        }
    } else if (IsA(node, ScalarArrayOpExpr)) {
        ScalarArrayOpExpr* saop = (ScalarArrayOpExpr*) node;
        if (list_length(saop->args) == 2) {
            Oid t = exprType((Node*) linitial(saop->args));
            Oid at = exprType((Node*) lsecond(saop->args));
            if (is_lexid(t) && at == get_array_type(t))
                type_operands(saop->args, t, at);
        }
    }
    return expression_tree_walker(node, WALKER, context);
}

PlannedStmt* lexid_planner(Query* parse, const char* query_string, int cursor_options, ParamListInfo bound_params)
{
    (void) type_untyped_operands((Node*) parse, nullptr);
    if (prev_planner)
        return prev_planner(parse, query_string, cursor_options, bound_params);
    return standard_planner(parse, query_string, cursor_options, bound_params);
}

} // namespace

void idseq_lexid_plan_init(void)
{
    prev_planner = planner_hook;
    planner_hook = lexid_planner;
}
