// Counters per key: the trigger helper idseq_counter_fill, and numbers bound at commit.
//
// idseq_counter_fill(counter, key_column, target_column [, 'commit']) is a BEFORE INSERT row
// trigger: it fills target_column (bigint, integer or numeric: the number; text or varchar:
// the formatted text) from the counter keyed by key_column's value as text, unless the row
// already has a value there.
//
// With 'commit' it leaves the column NULL, and a companion trigger binds the number when the
// transaction commits: a constraint trigger AFTER INSERT DEFERRABLE INITIALLY DEFERRED FOR
// EACH ROW running idseq_counter_bind with the same arguments, made by the event trigger
// idseq_counter_companions when the user's trigger is created (also by a restore, which
// creates the user's trigger again). The companion is internal (pg_dump skips it) and its
// constraint depends internally on the user's trigger, so it goes with it. At commit it
// follows the row's update chain to its latest version, skips a row that was deleted or
// already has a value, takes the number of the row's key (for a gap-free counter the key's
// row lock is held from here to the end of the commit only) and writes it with an UPDATE
// run as the table's owner (who made the trigger, or allowed it with TRIGGER).
#include "counter_internal.h"

#include "quoted_text_pg.h"
#include "internal_sql.h"
#include "charset_registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "access/tableam.h"
#include "catalog/dependency.h"
#include "catalog/indexing.h"
#include "catalog/pg_class.h"
#include "catalog/pg_constraint.h"
#include "catalog/pg_inherits.h"
#include "catalog/pg_trigger.h"
#include "catalog/pg_type.h"
#include "commands/event_trigger.h"
#include "commands/trigger.h"
#include "executor/spi.h"
#include "executor/tuptable.h"
#include "nodes/makefuncs.h"
#include "parser/parse_func.h"
#include "utils/fmgroids.h"
#include "utils/lsyscache.h"
#include "utils/guc.h"
#include "storage/lock.h"
#include "storage/proc.h"
#include "utils/rel.h"
#include "utils/snapmgr.h"
#include "utils/syscache.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(idseq_counter_fill);
PG_FUNCTION_INFO_V1(idseq_counter_bind);
PG_FUNCTION_INFO_V1(idseq_counter_companions);
}

using namespace idseq::pg;
using namespace idseq::pg::counter;

namespace {

// The trigger's arguments, checked against the relation.
struct FillArgs {
    const char* counter;
    int key_att;
    int target_att;
    Oid target_type;
    int32 target_typmod;
    bool at_commit;
};

FillArgs fill_args(TriggerData* td, const char* fn, bool companion)
{
    Trigger* tg = td->tg_trigger;
    if (tg->tgnargs < 3 || tg->tgnargs > (companion ? 3 : 4))
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("trigger \"%s\" on %s has %d arguments", tg->tgname, RelationGetRelationName(td->tg_relation),
                               tg->tgnargs),
                        errdetail("%s() takes (counter, key_column, target_column [, 'commit']).", fn)));
    FillArgs a;
    a.counter = tg->tgargs[0];
    a.at_commit = tg->tgnargs == 4;
    if (a.at_commit && strcmp(tg->tgargs[3], "commit") != 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("invalid fourth argument \"%s\" of trigger \"%s\"", shown(tg->tgargs[3]), tg->tgname),
                        errhint("The only fourth argument is 'commit', which binds the number at commit.")));
    TupleDesc desc = RelationGetDescr(td->tg_relation);
    for (int i = 1; i <= 2; i++) {
        int att = SPI_fnumber(desc, tg->tgargs[i]);
        if (att <= 0)
            ereport(ERROR, (errcode(ERRCODE_UNDEFINED_COLUMN),
                            errmsg("column \"%s\" of relation \"%s\" does not exist", shown(tg->tgargs[i]),
                                   RelationGetRelationName(td->tg_relation)),
                            errdetail("Trigger \"%s\" names it as its %s column.", tg->tgname, i == 1 ? "key" : "target")));
        (i == 1 ? a.key_att : a.target_att) = att;
    }
    // The key is the column's value as text. The text of a date, a timestamp, a float or an
    // interval depends on the session (DateStyle, TimeZone, extra_float_digits, IntervalStyle):
    // one value would be two keys, numbered twice. Only types whose text is the same in every
    // session may key a counter.
    auto stable_text = [](Oid t) {
        return t == INT2OID || t == INT4OID || t == INT8OID || t == NUMERICOID || t == TEXTOID || t == VARCHAROID ||
               t == BPCHAROID || t == NAMEOID || t == UUIDOID || t == BOOLOID || t == OIDOID;
    };
    const Oid key_type = TupleDescAttr(desc, a.key_att - 1)->atttypid;
    // a domain's base type is looked up only for a type not in the list (this runs per row)
    if (!stable_text(key_type) && !stable_text(getBaseType(key_type)))
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("key column \"%s\" of relation \"%s\" has type %s", tg->tgargs[1],
                               RelationGetRelationName(td->tg_relation),
                               format_type_be(TupleDescAttr(desc, a.key_att - 1)->atttypid)),
                        errdetail("Its text depends on session settings, so one value could be two keys."),
                        errhint("Key a counter by an integer, numeric, text, uuid or boolean column (e.g. a generated "
                                "column holding the date as text in a fixed format).")));
    a.target_type = TupleDescAttr(desc, a.target_att - 1)->atttypid;
    a.target_typmod = TupleDescAttr(desc, a.target_att - 1)->atttypmod;
    if (a.target_type != INT8OID && a.target_type != INT4OID && a.target_type != NUMERICOID &&
        a.target_type != TEXTOID && a.target_type != VARCHAROID)
        ereport(ERROR, (errcode(ERRCODE_DATATYPE_MISMATCH),
                        errmsg("column \"%s\" of relation \"%s\" has type %s", tg->tgargs[2],
                               RelationGetRelationName(td->tg_relation), format_type_be(a.target_type)),
                        errdetail("A counter fills a bigint, integer, numeric, text or varchar column.")));
    return a;
}

// The key of a row: key_column's value as text (its type's output).
text* row_key(TupleTableSlot* slot, TupleDesc desc, const FillArgs& a, const char* trigname)
{
    bool isnull;
    Datum v = slot_getattr(slot, a.key_att, &isnull);
    if (isnull)
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED),
                        errmsg("key column \"%s\" of a row of relation \"%s\" is null", NameStr(TupleDescAttr(desc, a.key_att - 1)->attname),
                               get_rel_name(slot->tts_tableOid)),
                        errdetail("Trigger \"%s\" takes the row's number from counter \"%s\" keyed by that column.", trigname,
                                  a.counter)));
    Oid out;
    bool varlena;
    getTypeOutputInfo(TupleDescAttr(desc, a.key_att - 1)->atttypid, &out, &varlena);
    return cstring_to_text(OidOutputFunctionCall(out, v));
}

// The value the target column gets: the next number of the key, as the column's type.
Datum number_for(const FillArgs& a, text* key)
{
    CounterDef def = find_counter(cstring_to_text(a.counter), ACL_USAGE, RowExclusiveLock);
    const char* k = VARDATA_ANY(key);
    const size_t len = VARSIZE_ANY_EXHDR(key);
    check_key(def.name, k, len);
    const int32 period = current_period(def);
    const int64 n = next_number(def, k, len, period);
    switch (a.target_type) {
    case INT8OID:
        return Int64GetDatum(n);
    case INT4OID:
        if (n > PG_INT32_MAX || n < PG_INT32_MIN)
            ereport(ERROR, (errcode(ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE),
                            errmsg("number " INT64_FORMAT " of counter \"%s\" is out of range for type integer", n, def.name),
                            errhint("Make the column bigint.")));
        return Int32GetDatum((int32) n);
    case NUMERICOID: {
        // the column's precision, as an assignment applies it (numeric(5) refuses 123456)
        Datum v = DirectFunctionCall1(int8_numeric, Int64GetDatum(n));
        return a.target_typmod >= 0 ? DirectFunctionCall2(numeric, v, Int32GetDatum(a.target_typmod)) : v;
    }
    case VARCHAROID: {
        // the column's length, as an assignment applies it (22001 for a longer text)
        Datum v = PointerGetDatum(render(def, n, k, len, period));
        return a.target_typmod >= 0
                   ? DirectFunctionCall3(varchar, v, Int32GetDatum(a.target_typmod), BoolGetDatum(false))
                   : v;
    }
    default:
        return PointerGetDatum(render(def, n, k, len, period));
    }
}

TriggerData* trigger_data(FunctionCallInfo fcinfo, const char* fn, bool before)
{
    if (!CALLED_AS_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("%s() was not called by the trigger manager", fn)));
    TriggerData* td = (TriggerData*) fcinfo->context;
    if (!TRIGGER_FIRED_FOR_ROW(td->tg_event) || !TRIGGER_FIRED_BY_INSERT(td->tg_event) ||
        (before ? !TRIGGER_FIRED_BEFORE(td->tg_event) : !TRIGGER_FIRED_AFTER(td->tg_event)))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("%s() must be fired %s INSERT FOR EACH ROW", fn, before ? "BEFORE" : "AFTER")));
    return td;
}

// The pg_trigger row of trigger oid (a copy), or NULL.
HeapTuple trigger_row(Oid oid)
{
    Relation rel = table_open(TriggerRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_trigger_oid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(oid));
    SysScanDesc scan = systable_beginscan(rel, TriggerOidIndexId, true, NULL, 1, &key);
    HeapTuple tup = systable_getnext(scan);
    HeapTuple copy = HeapTupleIsValid(tup) ? heap_copytuple(tup) : NULL;
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return copy;
}

// The arguments of a pg_trigger row.
List* trigger_args(HeapTuple tup)
{
    Form_pg_trigger form = (Form_pg_trigger) GETSTRUCT(tup);
    List* args = NIL;
    if (form->tgnargs == 0)
        return args;
    bool isnull;
    Relation rel = table_open(TriggerRelationId, AccessShareLock);
    Datum d = heap_getattr(tup, Anum_pg_trigger_tgargs, RelationGetDescr(rel), &isnull);
    bytea* b = isnull ? nullptr : DatumGetByteaPCopy(d);
    table_close(rel, AccessShareLock);
    if (!b)
        return args;
    const char* p = VARDATA_ANY(b);
    for (int i = 0; i < form->tgnargs; i++) {
        args = lappend(args, makeString(pstrdup(p)));
        p += strlen(p) + 1;
    }
    return args;
}

struct Functions {
    Oid fill;
    Oid bind;
};

Functions functions()
{
    Oid nsp = extension_schema_oid(false);
    Functions f;
    f.fill = LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup("idseq_counter_fill"))),
                            0, nullptr, true);
    f.bind = LookupFuncName(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup("idseq_counter_bind"))),
                            0, nullptr, true);
    return f;
}

// Whether two argument lists agree on their first three (counter, key column, target column).
bool same_target(List* a, List* b)
{
    if (list_length(a) < 3 || list_length(b) < 3)
        return false;
    for (int i = 0; i < 3; i++)
        if (strcmp(strVal(list_nth(a, i)), strVal(list_nth(b, i))) != 0)
            return false;
    return true;
}

// Makes a companion for the idseq_counter_fill trigger with 'commit' `user_trigger` (args)
// of table relid.
void make_companion(Oid relid, Oid user_trigger, List* args, Oid bind)
{
    CreateTrigStmt* stmt = makeNode(CreateTrigStmt);
    stmt->replace = false;
    stmt->isconstraint = true;
    // one per user trigger: a table may bind several columns at commit
    stmt->trigname = psprintf("idseq_counter_bind_%u", user_trigger);
    stmt->relation = makeRangeVar(get_namespace_name(get_rel_namespace(relid)), get_rel_name(relid), -1);
    stmt->funcname = list_make2(makeString(get_namespace_name(get_func_namespace(bind))), makeString(pstrdup("idseq_counter_bind")));
    stmt->args = list_truncate(list_copy(args), 3);
    stmt->row = true;
    stmt->timing = TRIGGER_TYPE_AFTER;
    stmt->events = TRIGGER_TYPE_INSERT;
    stmt->columns = NIL;
    stmt->whenClause = NULL;
    stmt->transitionRels = NIL;
    stmt->deferrable = true;
    stmt->initdeferred = true;
    stmt->constrrel = NULL;
    ObjectAddress made = CreateTrigger(stmt, NULL, relid, InvalidOid, InvalidOid, InvalidOid, bind, InvalidOid, NULL,
                                       true, false);
    CommandCounterIncrement();
    HeapTuple companion = trigger_row(made.objectId);
    if (!companion)
        elog(ERROR, "companion trigger %u was not created", made.objectId);
    ObjectAddress constraint, owner;
    ObjectAddressSet(constraint, ConstraintRelationId, ((Form_pg_trigger) GETSTRUCT(companion))->tgconstraint);
    ObjectAddressSet(owner, TriggerRelationId, user_trigger);
    recordDependencyOn(&constraint, &owner, DEPENDENCY_INTERNAL);
    CommandCounterIncrement();
}

// Gives every idseq_counter_fill trigger with 'commit' of a table (a leaf: triggers of a
// partitioned table fire on its partitions, through their clones) a companion, unless it
// has one.
void ensure_companions_of(Oid relid, const Functions& f)
{
    struct Found {
        Oid oid;
        List* args;
        bool fill;
    };
    List* found = NIL;
    Relation rel = table_open(TriggerRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_trigger_tgrelid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
    SysScanDesc scan = systable_beginscan(rel, TriggerRelidNameIndexId, true, NULL, 1, &key);
    HeapTuple tup;
    while (HeapTupleIsValid(tup = systable_getnext(scan))) {
        Form_pg_trigger form = (Form_pg_trigger) GETSTRUCT(tup);
        const bool fill = form->tgfoid == f.fill && form->tgnargs == 4;
        if (!fill && form->tgfoid != f.bind)
            continue;
        Found* one = (Found*) palloc(sizeof(Found));
        one->oid = form->oid;
        one->fill = fill;
        one->args = trigger_args(tup);
        if (fill && strcmp(strVal(llast(one->args)), "commit") != 0)
            continue;
        found = lappend(found, one);
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    ListCell* lc;
    foreach (lc, found) {
        Found* u = (Found*) lfirst(lc);
        if (!u->fill)
            continue;
        bool has = false;
        ListCell* lc2;
        foreach (lc2, found) {
            Found* c = (Found*) lfirst(lc2);
            has = has || (!c->fill && same_target(c->args, u->args));
        }
        if (!has)
            make_companion(relid, u->oid, u->args, f.bind);
    }
}

// Whether table relid has an idseq_counter_fill trigger with 'commit' (its own or a clone).
bool has_fill_at_commit(Oid relid, const Functions& f)
{
    bool found = false;
    Relation rel = table_open(TriggerRelationId, AccessShareLock);
    ScanKeyData key;
    ScanKeyInit(&key, Anum_pg_trigger_tgrelid, BTEqualStrategyNumber, F_OIDEQ, ObjectIdGetDatum(relid));
    SysScanDesc scan = systable_beginscan(rel, TriggerRelidNameIndexId, true, NULL, 1, &key);
    HeapTuple tup;
    while (!found && HeapTupleIsValid(tup = systable_getnext(scan))) {
        Form_pg_trigger form = (Form_pg_trigger) GETSTRUCT(tup);
        found = form->tgfoid == f.fill && form->tgnargs == 4 &&
                strcmp(strVal(llast(trigger_args(tup))), "commit") == 0;
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return found;
}

void ensure_companions(Oid relid, const Functions& f)
{
    const char kind = get_rel_relkind(relid);
    if (kind == RELKIND_RELATION) {
        ensure_companions_of(relid, f);
        return;
    }
    if (kind != RELKIND_PARTITIONED_TABLE || !has_fill_at_commit(relid, f))
        return; // a partitioned table without such a trigger clones none to its partitions
    List* all = find_all_inheritors(relid, NoLock, NULL);
    ListCell* lc;
    foreach (lc, all)
        if (get_rel_relkind(lfirst_oid(lc)) == RELKIND_RELATION)
            ensure_companions_of(lfirst_oid(lc), f);
}

// The companion of fill trigger td->tg_trigger on its table: a bind trigger with the same
// counter, key column and target column (relcache data, no catalog scan). Without one (a
// pg_upgrade restores the user's trigger before the event trigger that makes companions, and
// an administrator may have disabled event triggers), the numbers of this statement are taken
// at once instead: still exactly start, start+1, ... for a gap-free counter, but the key is
// then held until the transaction ends, so the statement says so once.
bool has_companion(TriggerData* td, const FillArgs& a)
{
    static Oid bind = InvalidOid;
    for (int attempt = 0; attempt < 2; attempt++) {
        TriggerDesc* desc = td->tg_relation->trigdesc;
        for (int i = 0; desc && i < desc->numtriggers; i++) {
            Trigger* t = &desc->triggers[i];
            if (t->tgfoid == bind && t->tgnargs == 3 && strcmp(t->tgargs[0], a.counter) == 0 &&
                strcmp(t->tgargs[1], td->tg_trigger->tgargs[1]) == 0 && strcmp(t->tgargs[2], td->tg_trigger->tgargs[2]) == 0)
                return true;
        }
        bind = functions().bind;
    }
    ereport(WARNING, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                      errmsg("trigger \"%s\" on \"%s\" has no companion to bind its numbers at commit", td->tg_trigger->tgname,
                             RelationGetRelationName(td->tg_relation)),
                      errdetail("The numbers of this statement are taken now, and their keys are held until the transaction ends."),
                      errhint("Run CREATE OR REPLACE TRIGGER \"%s\" again with event triggers enabled: the event trigger "
                              "idseq_counter_companions makes the companion.", td->tg_trigger->tgname)));
    return false;
}

} // namespace

extern "C" {

// BEFORE INSERT FOR EACH ROW: (counter, key_column, target_column [, 'commit'])
Datum idseq_counter_fill(PG_FUNCTION_ARGS)
{
    TriggerData* td = trigger_data(fcinfo, "idseq_counter_fill", true);
    FillArgs a = fill_args(td, "idseq_counter_fill", false);
    HeapTuple tup = td->tg_trigtuple;
    TupleDesc desc = RelationGetDescr(td->tg_relation);
    if (a.at_commit) {
        // once per statement: whether the companion that binds the number at commit exists
        // (fn_extra: 1 yes, 2 no, in which case the number is taken now, as without 'commit')
        if (!fcinfo->flinfo->fn_extra) {
            char* known = (char*) MemoryContextAllocZero(fcinfo->flinfo->fn_mcxt, 1);
            *known = has_companion(td, a) ? 1 : 2;
            fcinfo->flinfo->fn_extra = known;
        }
        if (*(char*) fcinfo->flinfo->fn_extra == 1)
            return PointerGetDatum(tup);
    }
    if (!heap_attisnull(tup, a.target_att, desc))
        return PointerGetDatum(tup);
    TupleTableSlot* slot = MakeSingleTupleTableSlot(desc, &TTSOpsHeapTuple);
    ExecStoreHeapTuple(tup, slot, false);
    slot->tts_tableOid = RelationGetRelid(td->tg_relation);
    text* key = row_key(slot, desc, a, td->tg_trigger->tgname);
    ExecDropSingleTupleTableSlot(slot);
    Datum value = number_for(a, key);
    bool isnull = false;
    int col = a.target_att;
    return PointerGetDatum(heap_modify_tuple_by_cols(tup, desc, 1, &col, &value, &isnull));
}

// The UPDATE that writes a number bound at commit into a row, planned once per (table,
// column) and kept for the session (SPI_keepplan: the plan cache plans it again after a change
// of the table, and per role under row-level security), so that a gap-free key's next number
// is held across the UPDATE's execution only, not across its parsing and planning too. A
// kept plan is used only while the table's schema (by name too: ALTER SCHEMA ... RENAME keeps
// its OID), name and column name are those it was made with, since its text names them and a
// plan made again after an invalidation reads the text again; and the UPDATE also requires
// the row's tableoid, so that a name that comes to mean another table between the check and
// the execution (a concurrent rename) updates nothing, which fails the commit. At most
// kBindPlans are kept, the oldest freed first -- but never while a kept plan runs (the
// UPDATE can fire a user's trigger whose rows get their numbers bound right away, under SET
// CONSTRAINTS ... IMMEDIATE): a plan that finds the cache full then is not kept.
struct BindPlan {
    Oid relid;
    AttrNumber att;
    Oid nsp;
    Oid type;
    NameData nspname;
    NameData relname;
    NameData attname;
    SPIPlanPtr plan;
};
constexpr int kBindPlans = 16;
BindPlan bind_plans[kBindPlans];
int bind_plans_used, bind_plan_next;
// How many kept plans run now, in the transaction that started at running_since (an error
// leaves the count up: no plan is freed again in that transaction).
int running;
TimestampTz running_since;

int& plans_running()
{
    if (running_since != GetCurrentTransactionStartTimestamp()) {
        running_since = GetCurrentTransactionStartTimestamp();
        running = 0;
    }
    return running;
}

BindPlan* find_bind_plan(Relation rel, const FillArgs& a)
{
    const char* att = NameStr(TupleDescAttr(RelationGetDescr(rel), a.target_att - 1)->attname);
    const char* nspname = nullptr;
    for (int i = 0; i < bind_plans_used; i++) {
        BindPlan& b = bind_plans[i];
        if (b.relid != RelationGetRelid(rel) || b.att != a.target_att || b.type != a.target_type ||
            b.nsp != RelationGetNamespace(rel) || strcmp(NameStr(b.relname), RelationGetRelationName(rel)) != 0 ||
            strcmp(NameStr(b.attname), att) != 0)
            continue;
        if (!nspname)
            nspname = get_namespace_name(RelationGetNamespace(rel));
        if (nspname && strcmp(NameStr(b.nspname), nspname) == 0)
            return &b;
    }
    return nullptr;
}

const char* bind_sql(Relation rel, const FillArgs& a)
{
    return psprintf("UPDATE ONLY %s SET %s = $1 WHERE ctid OPERATOR(pg_catalog.=) $2 "
                    "AND tableoid OPERATOR(pg_catalog.=) $3",
                    quote_qualified_identifier(get_namespace_name(RelationGetNamespace(rel)), RelationGetRelationName(rel)),
                    quote_identifier(NameStr(TupleDescAttr(RelationGetDescr(rel), a.target_att - 1)->attname)));
}

// A kept plan of the UPDATE, or null when none can be kept now; made inside
// internal_sql_connect_as (the table's owner, search_path pinned).
BindPlan* make_bind_plan(Relation rel, const FillArgs& a)
{
    if (bind_plans_used == kBindPlans && plans_running() > 0)
        return nullptr;
    const char* att = NameStr(TupleDescAttr(RelationGetDescr(rel), a.target_att - 1)->attname);
    Oid types[3] = {a.target_type, TIDOID, OIDOID};
    SPIPlanPtr plan = internal_sql_keep_plan(bind_sql(rel, a), 3, types);
    int slot;
    if (bind_plans_used < kBindPlans)
        slot = bind_plans_used++;
    else {
        slot = bind_plan_next;
        bind_plan_next = (bind_plan_next + 1) % kBindPlans;
        SPI_freeplan(bind_plans[slot].plan);
    }
    BindPlan& b = bind_plans[slot];
    b.relid = RelationGetRelid(rel);
    b.att = a.target_att;
    b.nsp = RelationGetNamespace(rel);
    b.type = a.target_type;
    namestrcpy(&b.nspname, get_namespace_name(RelationGetNamespace(rel)));
    namestrcpy(&b.relname, RelationGetRelationName(rel));
    namestrcpy(&b.attname, att);
    b.plan = plan;
    return &b;
}

// The deferred companion (AFTER INSERT FOR EACH ROW, at commit): binds the number of the row's
// latest version, unless it was deleted or has a value.
Datum idseq_counter_bind(PG_FUNCTION_ARGS)
{
    TriggerData* td = trigger_data(fcinfo, "idseq_counter_bind", false);
    FillArgs a = fill_args(td, "idseq_counter_bind", true);
    Relation rel = td->tg_relation;
    TupleDesc desc = RelationGetDescr(rel);
    // This transaction's own changes, of the current command too (at the commit of a single
    // statement no command boundary follows its INSERT), and committed ones: only this
    // transaction can have changed a row it has not committed.
    Snapshot snap = SnapshotSelf;
    ItemPointerData tid = td->tg_trigtuple->t_self;
    TableScanDesc scan = table_beginscan_tid(rel, snap);
    table_tuple_get_latest_tid(scan, &tid);
    table_endscan(scan);
    TupleTableSlot* slot = table_slot_create(rel, NULL);
    bool bind = table_tuple_fetch_row_version(rel, &tid, snap, slot);
    if (bind) {
        bool isnull;
        (void) slot_getattr(slot, a.target_att, &isnull);
        bind = isnull;
    }
    if (bind) {
        text* key = row_key(slot, desc, a, td->tg_trigger->tgname);
        InternalSqlSaved saved;
        BindPlan* b = find_bind_plan(rel, a);
        if (!b) {
            internal_sql_connect_as(rel->rd_rel->relowner, true, saved);
            b = make_bind_plan(rel, a);
            internal_sql_finish_as(saved);
        }
        // At commit no statement_timeout runs (PostgreSQL stops it before it commits), and
        // the wait for a gap-free key's holder (a prepared transaction, or one that bound it
        // early with SET CONSTRAINTS ... IMMEDIATE) would have no bound: the session's
        // statement_timeout bounds it as lock_timeout (55P03) when lock_timeout is not set.
        const int nest = NewGUCNestLevel();
        if (LockTimeout == 0 && StatementTimeout > 0)
            (void) set_config_option("lock_timeout", psprintf("%d", StatementTimeout), PGC_USERSET, PGC_S_SESSION,
                                     GUC_ACTION_SAVE, true, 0, false);
        Datum value = number_for(a, key);
        AtEOXact_GUC(true, nest);
        Datum values[3] = {value, PointerGetDatum(&tid), ObjectIdGetDatum(RelationGetRelid(rel))};
        internal_sql_connect_as(rel->rd_rel->relowner, true, saved);
        uint64 updated;
        if (b) {
            plans_running()++;
            updated = internal_sql_run_plan(b->plan, values, nullptr, false, SPI_OK_UPDATE);
            plans_running()--;
        } else {
            Oid types[3] = {a.target_type, TIDOID, OIDOID};
            updated = internal_sql_run(bind_sql(rel, a), 3, types, values, nullptr, false, SPI_OK_UPDATE);
        }
        internal_sql_finish_as(saved);
        // a number taken and bound to no row would be a gap: the commit fails instead
        if (updated != 1)
            ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                            errmsg("could not bind a number of counter \"%s\" to a row of \"%s\"", a.counter,
                                   RelationGetRelationName(rel)),
                            errdetail("The table's owner could not update the row (a row-level security policy, or a "
                                      "trigger that skipped the update)."),
                            errhint("Let the table's owner update the rows it inserts, or bind the number at insert.")));
    }
    ExecDropSingleTupleTableSlot(slot);
    return PointerGetDatum(NULL);
}

// ddl_command_end of CREATE TRIGGER: the companion of each new idseq_counter_fill trigger with
// 'commit'.
Datum idseq_counter_companions(PG_FUNCTION_ARGS)
{
    if (!CALLED_AS_EVENT_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("idseq_counter_companions() was not called by the event trigger manager")));
    // the tables of the commands: a trigger's table, or the table created or altered (a new
    // partition gets clones of its parent's triggers; ATTACH PARTITION too)
    internal_sql_connect();
    uint64 n = internal_sql_run("SELECT CASE WHEN classid OPERATOR(pg_catalog.=) 'pg_catalog.pg_trigger'::pg_catalog.regclass "
                                "THEN (SELECT t.tgrelid FROM pg_catalog.pg_trigger t WHERE t.oid OPERATOR(pg_catalog.=) objid) "
                                "ELSE objid END FROM pg_catalog.pg_event_trigger_ddl_commands() "
                                "WHERE classid OPERATOR(pg_catalog.=) ANY (ARRAY['pg_catalog.pg_trigger'::pg_catalog.regclass, "
                                "'pg_catalog.pg_class'::pg_catalog.regclass]) AND objsubid OPERATOR(pg_catalog.=) 0",
                                // not read-only: a new snapshot that sees the trigger just made
                                0, nullptr, nullptr, nullptr, false, SPI_OK_SELECT);
    Oid* rels = (Oid*) palloc0(sizeof(Oid) * (n + 1));
    for (uint64 i = 0; i < n; i++) {
        bool isnull;
        Datum d = SPI_getbinval(SPI_tuptable->vals[i], SPI_tuptable->tupdesc, 1, &isnull);
        rels[i] = isnull ? InvalidOid : DatumGetObjectId(d);
    }
    internal_sql_finish();
    Functions f = functions();
    for (uint64 i = 0; i < n; i++)
        if (OidIsValid(rels[i]) && SearchSysCacheExists1(RELOID, ObjectIdGetDatum(rels[i])))
            ensure_companions(rels[i], f);
    PG_RETURN_VOID();
}

} // extern "C"
