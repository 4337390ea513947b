// lexid compared with text through an index.
//
// Drivers send parameters as text (Npgsql) or varchar (JDBC; varchar is binary-coercible to
// text), so `code = $1` resolves to the operator lexid = text, which no operator class of
// lexid holds: 1.1 filtered every row. The planner support function of the (lexid, text)
// and (text, lexid) comparison functions turns such a clause on an index column of type
// lexid(cs) into the exactly equivalent lexid(cs) condition:
//
//     code = $1::text          ->   code = ($1)::lexid(cs)
//     'x'::text < code         ->   code > 'x'::lexid(cs)      (constants folded)
//
// The text operators read the text in the lexid's charset, and every value of a lexid(cs)
// column is of charset cs, so the condition is not lossy. The planner calls the support
// function itself (fmgr loads the library), so this works in a session that has not loaded
// the library yet, where the planner hook (lexid_untyped.cpp) is not installed. The keys
// the index scan sees are typed lexid(cs) values: btree's comparisons of keys with each
// other (redundant keys, array elements) stay in the column's charset.
//
// Why not cross-type (lexid, text) members of the btree family: a family that holds text
// must sort text arrays by itself, with a (text, text) comparison that cannot know the
// column's charset (btree asks for it on `code = ANY($1::text[])`, and failed with "missing
// support function 1(25,25)"), and its scan-key preprocessing would compare a text key
// with an untyped lexid key in base36.
#include "pg_headers.h"

extern "C" {
#include "access/htup_details.h"
#include "catalog/namespace.h"
#include "catalog/pg_operator.h"
#include "catalog/pg_type.h"
#include "nodes/makefuncs.h"
#include "nodes/nodeFuncs.h"
#include "nodes/supportnodes.h"
#include "optimizer/optimizer.h"
#include "parser/parse_coerce.h"
#include "utils/lsyscache.h"
#include "utils/syscache.h"

PG_FUNCTION_INFO_V1(lexid_text_support);
}

namespace {

// The operator of the same name with its operands swapped ("<" for ">"), for text OP code.
const char* commuted_name(const char* name)
{
    static const char* const pairs[][2] = {{"=", "="}, {"<", ">"}, {">", "<"}, {"<=", ">="}, {">=", "<="}};
    for (const auto& p : pairs)
        if (strcmp(name, p[0]) == 0)
            return p[1];
    return nullptr;
}

// The exactly equivalent index condition of `key OP text` (indexarg 0) or `text OP key`
// (indexarg 1), or NIL.
List* index_condition(SupportRequestIndexCondition* req)
{
    if (!is_opclause(req->node))
        return NIL;
    OpExpr* clause = (OpExpr*) req->node;
    if (list_length(clause->args) != 2 || req->indexarg < 0 || req->indexarg > 1)
        return NIL;
    Node* key = (Node*) list_nth(clause->args, req->indexarg);
    Node* value = (Node*) list_nth(clause->args, 1 - req->indexarg);
    if (exprType(value) != TEXTOID)
        return NIL;
    // The key's charset: its type modifier (a domain's, for a column of a domain type,
    // which the clause shows relabelled to lexid).
    Node* column = key;
    while (IsA(column, RelabelType))
        column = (Node*) ((RelabelType*) column)->arg;
    int32 typmod = exprTypmod(column);
    Oid lexid_type = getBaseTypeAndTypmod(exprType(column), &typmod);
    if (lexid_type != exprType(key))
        return NIL;
    if (typmod < 0) // untyped values (an expression index on t::lexid): nothing to read the text in
        return NIL;
    HeapTuple tup = SearchSysCache1(OPEROID, ObjectIdGetDatum(clause->opno));
    if (!HeapTupleIsValid(tup))
        return NIL;
    Form_pg_operator form = (Form_pg_operator) GETSTRUCT(tup);
    const char* name = req->indexarg == 0 ? NameStr(form->oprname) : commuted_name(NameStr(form->oprname));
    Oid nsp = form->oprnamespace;
    ReleaseSysCache(tup);
    if (name == nullptr)
        return NIL;
    // The lexid, lexid operator of that name, next to the text one, if the index serves it.
    Oid op = OpernameGetOprid(list_make2(makeString(get_namespace_name(nsp)), makeString(pstrdup(name))),
                              lexid_type, lexid_type);
    if (!OidIsValid(op) || !op_in_opfamily(op, req->opfamily))
        return NIL;
    Node* typed = coerce_to_target_type(NULL, (Node*) copyObjectImpl(value), TEXTOID, lexid_type, typmod,
                                        COERCION_ASSIGNMENT, COERCE_EXPLICIT_CAST, -1);
    if (typed == nullptr)
        return NIL;
    // A constant is read now (22P02 at plan time if it does not read, as for a literal),
    // a parameter once per execution.
    typed = eval_const_expressions(req->root, typed);
    Expr* cond = make_opclause(op, BOOLOID, false, (Expr*) copyObjectImpl(key), (Expr*) typed, InvalidOid, InvalidOid);
    set_opfuncid((OpExpr*) cond);
    req->lossy = false;
    return list_make1(cond);
}

} // namespace

extern "C" {

// Planner support of lexid_eq_text, lexid_lt_text, ... and text_eq_lexid, ...
Datum lexid_text_support(PG_FUNCTION_ARGS)
{
    Node* rawreq = (Node*) PG_GETARG_POINTER(0);
    if (IsA(rawreq, SupportRequestIndexCondition)) {
        List* conds = index_condition((SupportRequestIndexCondition*) rawreq);
        if (conds != NIL)
            PG_RETURN_POINTER(conds);
    }
    PG_RETURN_POINTER(nullptr);
}

} // extern "C"
