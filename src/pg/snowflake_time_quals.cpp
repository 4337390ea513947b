// Time predicates on snowflake ids (API.md section 6): snowflake_timestamp(id, layout) op x,
// for op in < <= = >= > (either argument order; BETWEEN is two of them), on a time-first
// layout, are planned as the range of ids they select:
//
//   time >= x   id >= idseq_snowflake_lower_id(x, layout, false)
//   time >  x   id >= idseq_snowflake_lower_id(x, layout, true)
//   time <= x   id <= idseq_snowflake_upper_id(x, layout, false)
//   time <  x   id <= idseq_snowflake_upper_id(x, layout, true)
//   time =  x   both of the first and third
//
// and a side no predicate limits ends where the layout's ids with a time end (id >= 0; id <=
// the last such id, left out where that is the largest bigint).
//
// On a time-first layout an id's time (the start of its time unit) never decreases as the id
// grows, so the ids whose time compares with x in one of these ways are one range of ids,
// and the bound functions give its end exactly (idseq::first_id_from, last_id_to), clamped
// to the ids that have a time (0 to idseq::last_timed_id). On those ids predicate and range
// agree exactly; every other id makes snowflake_timestamp raise an error and lies outside the
// range. So the range replaces the predicates: the rows are those of a sequential scan over
// the predicates, and snowflake_timestamp is no longer evaluated per row. A timestamp before
// every id's time gives 0, one after every id's time (past the layout's end, infinity) gives
// NULL (no row: the predicate holds for no id of the layout either). What changes is only
// where an id without a time is stored: the predicates, scanned sequentially, stop with its
// error; the range leaves it out (as an index scan of the range always did). A predicate
// whose x reads a column (a join condition) keeps its place and gets its bounds beside it
// (see replacement), and the conditions of a FULL JOIN are left as written.
//
// Where it happens: in get_relation_info_hook, which the planner calls for each base
// relation of a query level after it has preprocessed that level's expressions (defaults and
// named arguments of snowflake_timestamp filled in, constants folded, parameters of a custom
// plan replaced by their values, sublinks turned into subplans, BETWEEN expanded) and before
// it distributes the WHERE and JOIN ... ON conditions to the relations. The range takes the
// predicates' place in the same condition lists, folded like them: an index on id serves
// it, partition pruning reads it (at plan time for constants, at run time for parameters
// and stable expressions such as now() - interval '1 hour'), and every query level is reached in turn (subqueries, CTEs, sublinks, views,
// set operations; UNION ALL members below). A query that does not compare
// snowflake_timestamp's result is left alone.
//
// The hook being consulted at that point solves the first query of a fresh session too:
// without shared_preload_libraries the library is loaded by the first call of one of its
// functions, and snowflake_timestamp's planner support function (which simplifies nothing)
// is called while the planner preprocesses the expressions, before it reads the relations.
//
// Not rewritten (correct rows, planned as written): a layout that is not a constant or not
// time-first (node first: the ids of one time are scattered over the id range), the
// integer and text overloads of snowflake_timestamp, comparisons with date or timestamp
// without time zone (a conversion that could fail where the comparison does not), <>, and
// predicates under OR or NOT, or with a volatile operand.
#include "snowflake_internal.h"

#include "module.h"

extern "C" {
#include "catalog/pg_language.h"
#include "catalog/pg_proc.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/pathnodes.h"
#include "optimizer/clauses.h"
#include "optimizer/optimizer.h"
#include "optimizer/plancat.h"
#include "optimizer/restrictinfo.h"
#include "parser/parse_func.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(idseq_snowflake_lower_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_upper_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_timestamp_support);
}

using namespace snowflake;

namespace {

// ---- The bounds ------------------------------------------------------------------------------

Datum bound(FunctionCallInfo fcinfo, bool lower)
{
    TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
    Entry* e = entry_for(fcinfo, 1);
    bool exclusive = PG_GETARG_BOOL(2);
    if (!idseq::time_first(e->layout))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("snowflake layout \"%s\" is not time-first", e->name),
                        errdetail("Only a layout whose most significant field is time orders its ids by time.")));
    idseq::Bound b = idseq::Bound::All;
    int64 id = 0, us = 0, last = 0;
    bool finite = unix_us_from_pg(ts, us); // false: infinite, or past int64 microseconds since 1970
    if (!finite)
        b = (ts < 0) == lower ? idseq::Bound::All : idseq::Bound::None;
    run([&] {
        last = idseq::last_timed_id(e->layout);
        if (finite)
            b = lower ? idseq::first_id_from(e->layout, us, exclusive, id)
                      : idseq::last_id_to(e->layout, us, exclusive, id);
    });
    // The range never leaves the ids that have a time (0 to last): on those the predicate and
    // the range agree exactly, and no other id is in it.
    if (b == idseq::Bound::All)
        id = lower ? 0 : last;
    else if (b == idseq::Bound::At && id > last)
        id = last, b = lower ? idseq::Bound::None : idseq::Bound::At;
    if (b == idseq::Bound::None)
        PG_RETURN_NULL();
    PG_RETURN_INT64(id);
}

// ---- Recognising the predicates ----------------------------------------------------------------

get_relation_info_hook_type prev_relation_info = nullptr;

// snowflake_timestamp(bigint, text) as last recognised, and the bound functions beside it.
Oid known_timestamp = InvalidOid;
Oid known_nsp = InvalidOid;
Oid known_lower = InvalidOid, known_upper = InvalidOid;

void forget_functions(Datum, int, uint32) { known_timestamp = InvalidOid; }

char* proc_text(HeapTuple tp, AttrNumber att)
{
    bool isnull;
    Datum d = SysCacheGetAttr(PROCOID, tp, att, &isnull);
    return isnull ? nullptr : TextDatumGetCString(d);
}

Oid function_in(Oid nsp, const char* name)
{
    Oid args[3] = {TIMESTAMPTZOID, TEXTOID, BOOLOID};
    return LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup(name))), 3, args, true);
}

// Whether fn is this library's snowflake_timestamp(bigint, text) in an extension version that
// has the bound functions (an older version's schema plans as it did).
bool is_snowflake_timestamp(Oid fn)
{
    if (OidIsValid(known_timestamp))
        return fn == known_timestamp;
    if (fn < FirstNormalObjectId)
        return false;
    HeapTuple tp = SearchSysCache1(PROCOID, ObjectIdGetDatum(fn));
    if (!HeapTupleIsValid(tp))
        return false;
    Form_pg_proc p = (Form_pg_proc) GETSTRUCT(tp);
    bool yes = p->prolang == ClanguageId && p->pronargs == 2 && p->proargtypes.values[0] == INT8OID &&
               p->proargtypes.values[1] == TEXTOID && p->prorettype == TIMESTAMPTZOID;
    if (yes) {
        char* src = proc_text(tp, Anum_pg_proc_prosrc);
        char* bin = proc_text(tp, Anum_pg_proc_probin);
        const char* base = bin ? strrchr(bin, '/') : nullptr;
        yes = src && strcmp(src, "snowflake_timestamp") == 0 && base && strncmp(base, "/idseq", 6) == 0 &&
              (base[6] == '\0' || strcmp(base + 6, DLSUFFIX) == 0);
    }
    Oid nsp = p->pronamespace;
    ReleaseSysCache(tp);
    if (!yes)
        return false;
    Oid lower = function_in(nsp, "idseq_snowflake_lower_id"), upper = function_in(nsp, "idseq_snowflake_upper_id");
    if (!OidIsValid(lower) || !OidIsValid(upper))
        return false;
    known_nsp = nsp;
    known_lower = lower;
    known_upper = upper;
    known_timestamp = fn;
    return true;
}

// The comparison an operator makes of its left operand with its right one: -2 <, -1 <=, 0 =,
// 1 >=, 2 >; 99 for any other operator.
int comparison_of(OpExpr* op)
{
    switch (OidIsValid(op->opfuncid) ? op->opfuncid : get_opcode(op->opno)) {
    case F_TIMESTAMPTZ_LT:
        return -2;
    case F_TIMESTAMPTZ_LE:
        return -1;
    case F_TIMESTAMPTZ_EQ:
        return 0;
    case F_TIMESTAMPTZ_GE:
        return 1;
    case F_TIMESTAMPTZ_GT:
        return 2;
    default:
        return 99;
    }
}

constexpr Oid kInt8LessEqual = 414; // int8 <= int8 (pg_operator.dat)
constexpr Oid kInt8GreaterEqual = 415; // int8 >= int8

Node* derived(PlannerInfo* root, Node* id, bool lower, Node* x, Const* layout, bool exclusive)
{
    List* args = list_make3(copyObjectImpl(x), copyObjectImpl(layout), makeBoolConst(exclusive, false));
    Expr* call = (Expr*) makeFuncExpr(lower ? known_lower : known_upper, INT8OID, args, InvalidOid, InvalidOid,
                                      COERCE_EXPLICIT_CALL);
    Expr* qual = make_opclause(lower ? kInt8GreaterEqual : kInt8LessEqual, BOOLOID, false, (Expr*) copyObjectImpl(id),
                               call, InvalidOid, InvalidOid);
    return eval_const_expressions(root, (Node*) qual);
}

// A time predicate the rewrite serves: the id expression, the layout, and the bounds on id;
// join: x reads a column (of another table in a join, or of the id's own row).
struct Predicate {
    Node* id = nullptr;
    Const* layout = nullptr;
    Node* lower = nullptr;
    Node* upper = nullptr;
    bool join = false;
};

bool recognise(PlannerInfo* root, Node* clause, Predicate& p)
{
    if (!IsA(clause, OpExpr) || list_length(((OpExpr*) clause)->args) != 2)
        return false;
    OpExpr* op = (OpExpr*) clause;
    int cmp = comparison_of(op);
    if (cmp == 99)
        return false;
    Node* l = (Node*) linitial(op->args);
    Node* r = (Node*) lsecond(op->args);
    FuncExpr* f;
    Node* x;
    if (IsA(l, FuncExpr) && is_snowflake_timestamp(((FuncExpr*) l)->funcid)) {
        f = (FuncExpr*) l;
        x = r;
    } else if (IsA(r, FuncExpr) && is_snowflake_timestamp(((FuncExpr*) r)->funcid)) {
        f = (FuncExpr*) r;
        x = l;
        cmp = -cmp; // x op time is time op' x
    } else {
        return false;
    }
    if (list_length(f->args) != 2 || !IsA(lsecond(f->args), Const))
        return false;
    Node* id = (Node*) linitial(f->args);
    Const* layout = (Const*) lsecond(f->args);
    // The bounds evaluate x once per scan (or per outer row) where the predicate evaluated it
    // per row: only an operand without volatile functions or subplans gives the same value.
    if (layout->constisnull || contain_volatile_functions(id) || contain_volatile_functions(x) ||
        contain_subplans(id) || contain_subplans(x))
        return false;
    text* name = DatumGetTextPP(layout->constvalue);
    const Layout* found = layout_if_known(VARDATA_ANY(name), VARSIZE_ANY_EXHDR(name), known_nsp);
    bool time_first = false;
    if (found)
        run([&] { time_first = idseq::time_first(*found); });
    if (!time_first)
        return false;
    // The bounds fold the layout's definition into the plan: a custom layout's plan depends on
    // the registry, whose relcache entry snowflake_create_layout invalidates (also locally when
    // the creation rolls back), so a cached plan never keeps a layout that is gone.
    if (!found->builtin) {
        Oid registry = get_relname_relid("idseq_layout_registry", known_nsp);
        if (OidIsValid(registry))
            root->glob->relationOids = list_append_unique_oid(root->glob->relationOids, registry);
    }
    p.id = id;
    p.layout = layout;
    p.join = contain_var_clause(x);
    if (cmp >= 0)
        p.lower = derived(root, id, true, x, layout, cmp == 2);
    if (cmp <= 0)
        p.upper = derived(root, id, false, x, layout, cmp == -2);
    return true;
}

Node* infinity(TimestampTz which)
{
    return (Node*) makeConst(TIMESTAMPTZOID, -1, InvalidOid, sizeof(TimestampTz), TimestampTzGetDatum(which), false,
                             FLOAT8PASSBYVAL);
}

// Whether a folded bound is id <= the largest bigint, which every non-null id meets.
bool no_limit(Node* qual)
{
    if (!IsA(qual, OpExpr) || list_length(((OpExpr*) qual)->args) != 2)
        return false;
    Node* c = (Node*) lsecond(((OpExpr*) qual)->args);
    return IsA(c, Const) && !((Const*) c)->constisnull && DatumGetInt64(((Const*) c)->constvalue) == PG_INT64_MAX;
}

// The conditions on id that replace the time predicates among clauses (an implicit AND), with
// the positions of the predicates they replace in *replaced; NIL when there is none.
//
// A predicate whose x reads a column (a join condition such as time = b.t) is not replaced:
// its bounds are added beside it, implied by it, where a nested loop can use them as a
// parameterized index condition, while the predicate itself stays for a hash or merge join
// (an equality) or as the filter. Replaced by a range, it would leave a nested loop as the
// only join (and a FULL JOIN no join at all).
//
// Per id expression and layout, the predicates become one range of ids: their bounds, and
// where no predicate limits one side, the end of the ids that have a time (0, or the layout's
// last such id). The bounds are exact and never leave those ids, on which the predicate and
// the range agree; the ids outside them (negative, or beyond the layout's bits or time) make
// snowflake_timestamp raise an error and are not in the range. So the range returns exactly
// the rows the predicates do, without evaluating snowflake_timestamp per row. The one
// difference is the error: a row whose id has no time is left out of the range, where a
// sequential scan over the predicates would stop at it (an index scan never reaches it).
List* replacement(PlannerInfo* root, List* clauses, Bitmapset** replaced)
{
    // The bounds of one id expression and layout's predicates.
    struct Range {
        Node* id;
        Const* layout;
        List* lower;
        List* upper;
    };
    List* groups = NIL; // of Range*
    List* beside = NIL; // the bounds of join predicates
    int i = 0;
    ListCell* lc;
    foreach (lc, clauses) {
        Predicate p;
        if (recognise(root, (Node*) lfirst(lc), p) && p.join) {
            if (p.lower)
                beside = list_append_unique(beside, p.lower);
            if (p.upper)
                beside = list_append_unique(beside, p.upper);
        } else if (p.id != nullptr) {
            Range* g = nullptr;
            ListCell* gc;
            foreach (gc, groups) {
                Range* q = (Range*) lfirst(gc);
                if (equal(q->id, p.id) && equal(q->layout, p.layout))
                    g = q;
            }
            if (g == nullptr) {
                g = (Range*) palloc0(sizeof(Range));
                g->id = p.id;
                g->layout = p.layout;
                groups = lappend(groups, g);
            }
            if (p.lower)
                g->lower = list_append_unique(g->lower, p.lower);
            if (p.upper)
                g->upper = list_append_unique(g->upper, p.upper);
            *replaced = bms_add_member(*replaced, i);
        }
        i++;
    }
    List* out = NIL;
    foreach (lc, groups) {
        Range* g = (Range*) lfirst(lc);
        if (g->lower == NIL)
            g->lower = list_make1(derived(root, g->id, true, infinity(DT_NOBEGIN), g->layout, false));
        if (g->upper == NIL) {
            Node* end = derived(root, g->id, false, infinity(DT_NOEND), g->layout, false);
            if (!no_limit(end))
                g->upper = list_make1(end);
        }
        out = list_concat(out, g->lower);
        out = list_concat(out, g->upper);
    }
    foreach (lc, beside)
        if (!list_member(clauses, lfirst(lc))) // idempotent: the hook runs once per base relation
            out = lappend(out, lfirst(lc));
    return out;
}

// A preprocessed condition list (implicit AND) with its time predicates replaced.
Node* with_derived(PlannerInfo* root, Node* quals)
{
    if (quals == nullptr || !IsA(quals, List))
        return quals;
    List* list = (List*) quals;
    Bitmapset* replaced = nullptr;
    List* range = replacement(root, list, &replaced);
    if (range == NIL)
        return quals;
    List* kept = NIL;
    int i = 0;
    ListCell* lc;
    foreach (lc, list)
        if (!bms_is_member(i++, replaced))
            kept = lappend(kept, lfirst(lc));
    return (Node*) list_concat(kept, range);
}

void derive_in(PlannerInfo* root, Node* jt)
{
    check_stack_depth();
    if (jt == nullptr)
        return;
    if (IsA(jt, FromExpr)) {
        FromExpr* f = (FromExpr*) jt;
        ListCell* lc;
        foreach (lc, f->fromlist)
            derive_in(root, (Node*) lfirst(lc));
        f->quals = with_derived(root, f->quals);
    } else if (IsA(jt, JoinExpr)) {
        JoinExpr* j = (JoinExpr*) jt;
        derive_in(root, j->larg);
        derive_in(root, j->rarg);
        // A FULL JOIN's conditions stay as written: it needs them all merge- or hash-joinable,
        // and no condition of it can serve as an index condition.
        if (j->jointype != JOIN_FULL)
            j->quals = with_derived(root, j->quals);
    }
}

// A UNION ALL flattened into an append relation (a view or subquery of UNION ALL with the
// predicate outside) has a subquery, not a table, as its parent: the planner reads its
// member tables only after it has distributed the conditions, and copies the parent's to
// each member later. The derived conditions go to the parent's list then.
void derive_for_union_member(PlannerInfo* root, RelOptInfo* rel)
{
    if (root->append_rel_array == nullptr || root->append_rel_array[rel->relid] == nullptr)
        return;
    Index parent_relid = root->append_rel_array[rel->relid]->parent_relid;
    RelOptInfo* parent = root->simple_rel_array[parent_relid];
    if (parent == nullptr || root->simple_rte_array[parent_relid]->rtekind != RTE_SUBQUERY)
        return;
    List* clauses = NIL;
    ListCell* lc;
    foreach (lc, parent->baserestrictinfo)
        clauses = lappend(clauses, ((RestrictInfo*) lfirst(lc))->clause);
    Bitmapset* replaced = nullptr;
    List* range = replacement(root, clauses, &replaced);
    if (range == NIL)
        return;
    List* kept = NIL;
    int i = 0;
    foreach (lc, parent->baserestrictinfo)
        if (!bms_is_member(i++, replaced))
            kept = lappend(kept, lfirst(lc));
    foreach (lc, range)
        kept = lappend(kept, make_simple_restrictinfo(root, (Expr*) lfirst(lc)));
    parent->baserestrictinfo = kept;
}

void time_quals_relation_info(PlannerInfo* root, Oid relid, bool inhparent, RelOptInfo* rel)
{
    if (prev_relation_info)
        prev_relation_info(root, relid, inhparent, rel);
    // Base relations are read before the conditions are distributed to them; partitions
    // and other members of an inheritance tree after.
    if (rel->reloptkind == RELOPT_BASEREL && root->parse && root->parse->jointree)
        derive_in(root, (Node*) root->parse->jointree);
    else if (rel->reloptkind == RELOPT_OTHER_MEMBER_REL)
        derive_for_union_member(root, rel);
}

} // namespace

extern "C" {

Datum idseq_snowflake_lower_id(PG_FUNCTION_ARGS) { return bound(fcinfo, true); }

Datum idseq_snowflake_upper_id(PG_FUNCTION_ARGS) { return bound(fcinfo, false); }

// snowflake_timestamp's planner support: nothing to simplify. Being called loads the library
// (and so installs the hook) while the planner preprocesses a query that calls
// snowflake_timestamp, before it reads the query's relations.
Datum idseq_snowflake_timestamp_support(PG_FUNCTION_ARGS) { PG_RETURN_POINTER(nullptr); }

} // extern "C"

void idseq_snowflake_time_quals_init(void)
{
    prev_relation_info = get_relation_info_hook;
    get_relation_info_hook = time_quals_relation_info;
    CacheRegisterSyscacheCallback(PROCOID, forget_functions, (Datum) 0);
}
