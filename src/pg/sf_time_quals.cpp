// Time predicates on snowflake ids (docs/time.md, "Time predicates"):
// snowflake_timestamp(id, layout) op x, for op in < <= = >= > (either argument order; BETWEEN
// is two of them), on a time-first layout, are planned as the range of ids they select:
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
// x may also be a date or a timestamp without time zone: PostgreSQL compares those with a
// timestamptz as the date's midnight (the timestamp) in the session's TimeZone, and a value
// past timestamptz's range as above (below) every finite timestamptz. The bounds take
// idseq_compare_as_timestamptz(x), which is exactly that value (infinity for the ones past
// the range, where a cast would raise an error): the predicate is replaced as above. The
// function is STABLE, so the bound is computed when the query runs, in the TimeZone then in
// force, as for now() (a cached plan may run in another TimeZone than it was planned in).
//
// The time read in local time is bounded too (sf_local_time.cpp computes the bounds):
//
//   time::date op d                    id >= idseq_snowflake_date_lower_id(d, layout, >)
//                                      id <= idseq_snowflake_date_upper_id(d, layout, <)
//                                      idseq_snowflake_date_exact(d, op) OR time::date op d
//   date_trunc(unit, time[, zone]) op x
//                                      id >= idseq_snowflake_trunc_lower_id(unit, x, zone, ...)
//                                      id <= idseq_snowflake_trunc_upper_id(...)
//                                      idseq_snowflake_trunc_exact(unit, x, zone, op) OR ...
//
// for the units microseconds to year (not decade and longer), a constant unit and zone, and x
// a timestamptz (or a date or timestamp through idseq_compare_as_timestamptz). Local time
// does not grow with the instant everywhere (where clocks are set back across midnight a
// date comes back), so these ids are not always one range: the bounds hold them all, and
// the predicate stays, guarded by the _exact function, which tells when the query runs
// whether the bounds hold exactly its ids (then the predicate is not evaluated per row). A
// join predicate of these forms keeps its place unguarded, with its bounds beside it.
//
// Where it happens: in get_relation_info_hook, which the planner calls for each base
// relation of a query level after it has preprocessed that level's expressions (defaults and
// named arguments of snowflake_timestamp filled in, constants folded, parameters of a custom
// plan replaced by their values, sublinks turned into subplans, BETWEEN expanded) and before
// it distributes the WHERE and JOIN ... ON conditions to the relations. The range takes the
// predicates' place in the same condition lists, folded like them: an index on id serves
// it, partition pruning reads it (at plan time for constants, at run time for parameters
// and stable expressions such as now() - interval '1 hour'), and every query level is
// reached in turn (subqueries, CTEs, sublinks, views, set operations; UNION ALL members
// below). A query that does not compare snowflake_timestamp's result is left alone.
//
// The hook being consulted at that point solves the first query of a fresh session too:
// without shared_preload_libraries the library is loaded by the first call of one of its
// functions, and snowflake_timestamp's planner support function (which simplifies nothing)
// is called while the planner preprocesses the expressions, before it reads the relations.
//
// Not rewritten (correct rows, planned as written): a layout that is not a constant or not
// time-first (node first: the ids of one time are scattered over the id range), the
// integer and text overloads of snowflake_timestamp, a date of the time compared with
// anything but a date, date_trunc with another unit or a unit or zone that is not a
// constant, <>, and predicates under OR or NOT, or with a volatile operand.
#include "sf_internal.h"

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
#include "utils/lsyscache.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(idseq_snowflake_lower_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_upper_id);
PG_FUNCTION_INFO_V1(idseq_snowflake_timestamp_support);
}

using namespace snowflake;

// ---- The bounds ------------------------------------------------------------------------------

bool snowflake::time_bound(Entry* e, TimestampTz ts, bool lower, bool exclusive, int64& id)
{
    if (!idseq::time_first(e->layout))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("snowflake layout \"%s\" is not time-first", e->name),
                        errdetail("Only a layout whose most significant field is time orders its ids by time.")));
    idseq::Bound b = idseq::Bound::All;
    int64 us = 0, last = 0;
    id = 0;
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
    return b != idseq::Bound::None;
}

namespace {

Datum bound(FunctionCallInfo fcinfo, bool lower)
{
    TimestampTz ts = PG_GETARG_TIMESTAMPTZ(0);
    Entry* e = entry_for(fcinfo, 1);
    int64 id;
    if (!time_bound(e, ts, lower, PG_GETARG_BOOL(2), id))
        PG_RETURN_NULL();
    PG_RETURN_INT64(id);
}

// ---- Recognising the predicates ----------------------------------------------------------------

get_relation_info_hook_type prev_relation_info = nullptr;

// snowflake_timestamp(bigint, text) as recognised for the relation being planned, and the
// bound functions beside it (InvalidOid: a form whose functions the extension's version lacks
// is planned as written). Forgotten at each relation, so that no OID outlives a DROP: a query
// looks them up once (the conditions of a partitioned table or a UNION ALL are replaced once,
// for all members), and keeping them across queries planned no faster (100 partitions, and
// 100 tables under UNION ALL: the same plans per second within 3%).
Oid known_timestamp = InvalidOid;
Oid known_nsp = InvalidOid;
Oid known_lower = InvalidOid, known_upper = InvalidOid;
Oid known_compare_date = InvalidOid, known_compare_timestamp = InvalidOid;
Oid known_date_lower = InvalidOid, known_date_upper = InvalidOid;
Oid known_trunc_lower = InvalidOid, known_trunc_upper = InvalidOid;
Oid known_date_exact = InvalidOid, known_trunc_exact = InvalidOid;

char* proc_text(HeapTuple tp, AttrNumber att)
{
    bool isnull;
    Datum d = SysCacheGetAttr(PROCOID, tp, att, &isnull);
    return isnull ? nullptr : TextDatumGetCString(d);
}

Oid function_in(Oid nsp, const char* name, std::initializer_list<Oid> types)
{
    Oid args[5];
    int n = 0;
    for (Oid t : types)
        args[n++] = t;
    return LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup(name))), n, args, true);
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
    Oid lower = function_in(nsp, "idseq_snowflake_lower_id", {TIMESTAMPTZOID, TEXTOID, BOOLOID});
    Oid upper = function_in(nsp, "idseq_snowflake_upper_id", {TIMESTAMPTZOID, TEXTOID, BOOLOID});
    if (!OidIsValid(lower) || !OidIsValid(upper))
        return false;
    known_nsp = nsp;
    known_lower = lower;
    known_upper = upper;
    known_compare_date = function_in(nsp, "idseq_compare_as_timestamptz", {DATEOID});
    known_compare_timestamp = function_in(nsp, "idseq_compare_as_timestamptz", {TIMESTAMPOID});
    known_date_lower = function_in(nsp, "idseq_snowflake_date_lower_id", {DATEOID, TEXTOID, BOOLOID});
    known_date_upper = function_in(nsp, "idseq_snowflake_date_upper_id", {DATEOID, TEXTOID, BOOLOID});
    known_trunc_lower =
        function_in(nsp, "idseq_snowflake_trunc_lower_id", {TEXTOID, TIMESTAMPTZOID, TEXTOID, TEXTOID, BOOLOID});
    known_trunc_upper =
        function_in(nsp, "idseq_snowflake_trunc_upper_id", {TEXTOID, TIMESTAMPTZOID, TEXTOID, TEXTOID, BOOLOID});
    known_date_exact = function_in(nsp, "idseq_snowflake_date_exact", {DATEOID, INT4OID});
    known_trunc_exact = function_in(nsp, "idseq_snowflake_trunc_exact", {TEXTOID, TIMESTAMPTZOID, TEXTOID, INT4OID});
    known_timestamp = fn;
    return true;
}

// The comparison operators planned, by their function: the comparison each makes of its left
// operand with its right one (-2 <, -1 <=, 0 =, 1 >=, 2 >) and the operands' types.
struct Comparison {
    Oid fn;
    int cmp;
    Oid left, right;
};
constexpr Oid kTz = TIMESTAMPTZOID, kDate = DATEOID, kTs = TIMESTAMPOID;
const Comparison kComparisons[] = {
    {F_TIMESTAMPTZ_LT, -2, kTz, kTz},           {F_TIMESTAMPTZ_LE, -1, kTz, kTz},
    {F_TIMESTAMPTZ_EQ, 0, kTz, kTz},            {F_TIMESTAMPTZ_GE, 1, kTz, kTz},
    {F_TIMESTAMPTZ_GT, 2, kTz, kTz},            {F_TIMESTAMPTZ_LT_DATE, -2, kTz, kDate},
    {F_TIMESTAMPTZ_LE_DATE, -1, kTz, kDate},    {F_TIMESTAMPTZ_EQ_DATE, 0, kTz, kDate},
    {F_TIMESTAMPTZ_GE_DATE, 1, kTz, kDate},     {F_TIMESTAMPTZ_GT_DATE, 2, kTz, kDate},
    {F_DATE_LT_TIMESTAMPTZ, -2, kDate, kTz},    {F_DATE_LE_TIMESTAMPTZ, -1, kDate, kTz},
    {F_DATE_EQ_TIMESTAMPTZ, 0, kDate, kTz},     {F_DATE_GE_TIMESTAMPTZ, 1, kDate, kTz},
    {F_DATE_GT_TIMESTAMPTZ, 2, kDate, kTz},     {F_TIMESTAMPTZ_LT_TIMESTAMP, -2, kTz, kTs},
    {F_TIMESTAMPTZ_LE_TIMESTAMP, -1, kTz, kTs}, {F_TIMESTAMPTZ_EQ_TIMESTAMP, 0, kTz, kTs},
    {F_TIMESTAMPTZ_GE_TIMESTAMP, 1, kTz, kTs},  {F_TIMESTAMPTZ_GT_TIMESTAMP, 2, kTz, kTs},
    {F_TIMESTAMP_LT_TIMESTAMPTZ, -2, kTs, kTz}, {F_TIMESTAMP_LE_TIMESTAMPTZ, -1, kTs, kTz},
    {F_TIMESTAMP_EQ_TIMESTAMPTZ, 0, kTs, kTz},  {F_TIMESTAMP_GE_TIMESTAMPTZ, 1, kTs, kTz},
    {F_TIMESTAMP_GT_TIMESTAMPTZ, 2, kTs, kTz},  {F_DATE_LT, -2, kDate, kDate},
    {F_DATE_LE, -1, kDate, kDate},              {F_DATE_EQ, 0, kDate, kDate},
    {F_DATE_GE, 1, kDate, kDate},               {F_DATE_GT, 2, kDate, kDate},
};

const Comparison* comparison_of(OpExpr* op)
{
    Oid fn = OidIsValid(op->opfuncid) ? op->opfuncid : get_opcode(op->opno);
    for (const Comparison& c : kComparisons)
        if (c.fn == fn)
            return &c;
    return nullptr;
}

constexpr Oid kInt8LessEqual = 414; // int8 <= int8 (pg_operator.dat)
constexpr Oid kInt8GreaterEqual = 415; // int8 >= int8

Node* bound_qual(PlannerInfo* root, Node* id, bool lower, Oid fn, List* args)
{
    Expr* call = (Expr*) makeFuncExpr(fn, INT8OID, args, InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
    Expr* qual = make_opclause(lower ? kInt8GreaterEqual : kInt8LessEqual, BOOLOID, false, (Expr*) copyObjectImpl(id),
                               call, InvalidOid, InvalidOid);
    return eval_const_expressions(root, (Node*) qual);
}

Node* derived(PlannerInfo* root, Node* id, bool lower, Node* x, Const* layout, bool exclusive)
{
    List* args = list_make3(copyObjectImpl(x), copyObjectImpl(layout), makeBoolConst(exclusive, false));
    return bound_qual(root, id, lower, lower ? known_lower : known_upper, args);
}

// The ways a predicate reads an id's time: the time itself (snowflake_timestamp(id, layout),
// a timestamptz), its date in the session's TimeZone (snowflake_timestamp(...)::date), or
// date_trunc(unit, snowflake_timestamp(...)[, zone]) for a unit of trunc_unit_of.
enum class Form { Time, Date, Trunc };

struct TimeSide {
    Form form;
    Oid type; // what the side is: timestamptz, or date for Form::Date
    FuncExpr* timestamp; // the call of snowflake_timestamp
    Node* unit; // Form::Trunc: the unit (a Const) and the zone (a Const, or nullptr)
    Node* zone;
};

bool is_timestamp_call(Node* n) { return n && IsA(n, FuncExpr) && is_snowflake_timestamp(((FuncExpr*) n)->funcid); }

bool time_side(Node* n, TimeSide& s)
{
    if (!IsA(n, FuncExpr))
        return false;
    FuncExpr* f = (FuncExpr*) n;
    if (is_snowflake_timestamp(f->funcid)) {
        s = {Form::Time, TIMESTAMPTZOID, f, nullptr, nullptr};
        return true;
    }
    int nargs = list_length(f->args);
    if (f->funcid == F_DATE_TIMESTAMPTZ && nargs == 1 && is_timestamp_call((Node*) linitial(f->args))) {
        s = {Form::Date, DATEOID, (FuncExpr*) linitial(f->args), nullptr, nullptr};
        return OidIsValid(known_date_lower) && OidIsValid(known_date_upper) && OidIsValid(known_date_exact);
    }
    if (!((f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ && nargs == 2) ||
          (f->funcid == F_DATE_TRUNC_TEXT_TIMESTAMPTZ_TEXT && nargs == 3)) ||
        !is_timestamp_call((Node*) lsecond(f->args)))
        return false;
    Node* unit = (Node*) linitial(f->args);
    Node* zone = nargs == 3 ? (Node*) lthird(f->args) : nullptr;
    if (!IsA(unit, Const) || ((Const*) unit)->constisnull || (zone && (!IsA(zone, Const) || ((Const*) zone)->constisnull)))
        return false;
    if (trunc_unit_of(DatumGetTextPP(((Const*) unit)->constvalue)) == TruncUnit::None)
        return false;
    s = {Form::Trunc, TIMESTAMPTZOID, (FuncExpr*) lsecond(f->args), unit, zone};
    return OidIsValid(known_trunc_lower) && OidIsValid(known_trunc_upper) && OidIsValid(known_trunc_exact);
}

// A time predicate the rewrite serves: the id expression, the layout, and the bounds on id;
// join: x reads a column (of another table in a join, or of the id's own row); guard (a
// local-time form): the bounds may hold more ids than the predicate selects, so the predicate
// stays, as (exact OR predicate), where exact says when the query runs whether the bounds
// hold exactly its ids (then the predicate is not evaluated row by row).
struct Predicate {
    Node* id = nullptr;
    Const* layout = nullptr;
    Node* lower = nullptr;
    Node* upper = nullptr;
    Node* guard = nullptr;
    bool join = false;
};

// x as the timestamptz the bounds take: a date or timestamp through
// idseq_compare_as_timestamptz, which gives what PostgreSQL compares a timestamptz with.
Node* as_timestamptz(Node* x, Oid type)
{
    if (type == TIMESTAMPTZOID)
        return (Node*) copyObjectImpl(x);
    return (Node*) makeFuncExpr(type == DATEOID ? known_compare_date : known_compare_timestamp, TIMESTAMPTZOID,
                                list_make1(copyObjectImpl(x)), InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
}

// date_trunc's zone as the bounds take it: NULL for the session's TimeZone.
Node* zone_arg(Node* zone)
{
    return zone ? (Node*) copyObjectImpl(zone) : (Node*) makeNullConst(TEXTOID, -1, InvalidOid);
}

Node* makeInt4(int v)
{
    return (Node*) makeConst(INT4OID, -1, InvalidOid, sizeof(int32), Int32GetDatum(v), false, true);
}

// (exact(args) OR clause)
Node* guarded(PlannerInfo* root, Node* clause, Oid exact, List* args)
{
    Expr* call = (Expr*) makeFuncExpr(exact, BOOLOID, args, InvalidOid, InvalidOid, COERCE_EXPLICIT_CALL);
    return eval_const_expressions(root, (Node*) makeBoolExpr(OR_EXPR, list_make2(call, copyObjectImpl(clause)), -1));
}

bool recognise(PlannerInfo* root, Node* clause, Predicate& p)
{
    if (!IsA(clause, OpExpr) || list_length(((OpExpr*) clause)->args) != 2)
        return false;
    OpExpr* op = (OpExpr*) clause;
    const Comparison* c = comparison_of(op);
    if (!c)
        return false;
    Node* l = (Node*) linitial(op->args);
    Node* r = (Node*) lsecond(op->args);
    TimeSide s;
    Node* x;
    Oid x_type;
    int cmp = c->cmp;
    if (time_side(l, s) && s.type == c->left) {
        x = r;
        x_type = c->right;
    } else if (time_side(r, s) && s.type == c->right) {
        x = l;
        x_type = c->left;
        cmp = -cmp; // x op time is time op' x
    } else {
        return false;
    }
    // A date is compared with a date; a time or a truncated time with a timestamptz, or with
    // a date or timestamp as PostgreSQL compares them (idseq_compare_as_timestamptz).
    if (s.form == Form::Date ? x_type != DATEOID
                             : x_type != TIMESTAMPTZOID && !OidIsValid(x_type == DATEOID ? known_compare_date
                                                                                         : known_compare_timestamp))
        return false;
    FuncExpr* f = s.timestamp;
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
    if (s.form == Form::Date)
        p.guard = guarded(root, clause, known_date_exact, list_make2(copyObjectImpl(x), makeInt4(cmp)));
    else if (s.form == Form::Trunc)
        p.guard = guarded(root, clause, known_trunc_exact,
                          list_make4(copyObjectImpl(s.unit), as_timestamptz(x, x_type), zone_arg(s.zone), makeInt4(cmp)));
    for (bool lower : {true, false}) {
        if (lower ? cmp < 0 : cmp > 0)
            continue;
        bool exclusive = cmp == (lower ? 2 : -2);
        Node* bound = nullptr;
        switch (s.form) {
        case Form::Time:
            bound = derived(root, id, lower, as_timestamptz(x, x_type), layout, exclusive);
            break;
        case Form::Date:
            bound = bound_qual(root, id, lower, lower ? known_date_lower : known_date_upper,
                               list_make3(copyObjectImpl(x), copyObjectImpl(layout), makeBoolConst(exclusive, false)));
            break;
        case Form::Trunc:
            bound = bound_qual(root, id, lower, lower ? known_trunc_lower : known_trunc_upper,
                               list_make5(copyObjectImpl(s.unit), as_timestamptz(x, x_type), zone_arg(s.zone),
                                          copyObjectImpl(layout), makeBoolConst(exclusive, false)));
            break;
        }
        (lower ? p.lower : p.upper) = bound;
    }
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
    List* guards = NIL; // the local-time predicates, guarded
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
            if (p.guard)
                guards = lappend(guards, p.guard);
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
    out = list_concat(out, guards);
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
    known_timestamp = InvalidOid;
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
}
