// Named keys: idseq_create_key, idseq_import_key, idseq_export_key, idseq_drop_key,
// idseq_grant_key, idseq_revoke_key, and the lookup behind idseq_public_id.
//
// Where a key lives. One row per key in the extension's table idseq_key_registry (name,
// owner, the roles granted USAGE, the 32 key bytes), on which no role but the table's owner (the
// extension's owner) and the database's owner (SELECT and INSERT, so that it can pg_dump and
// restore its database) has any privilege. pg_dump writes the rows (the table is a
// configuration table of the extension), so a restore decodes old public ids. Other roles
// read keys only through the functions here, which check the caller's rights first: the
// owner's (the key's owner, a member of its role, a superuser) to export, drop, grant and
// revoke; the owner's or USAGE to use it.
//
// Reads. As charset_registry.cpp reads charsets: systable_beginscan on the primary key, with a
// fresh catalog snapshot (every committed row and this transaction's rows of earlier commands), no
// SQL, so a lookup works in a parallel worker and runs no planner per call.
//
// Writes. Through internal SQL run as the table's owner (internal_sql_connect_as, in a
// security-restricted operation), after the caller's rights were checked here: fixed
// statements on the extension's own table, search_path pinned. The table's triggers validate
// each row (never quoting the key) and send a relcache invalidation of the table
// (idseq_key_registry_changed), which every backend's call-site caches (NamedKeySlot) watch:
// a dropped key, a revoked grant or a re-created key is seen at the caller's next statement,
// and in this transaction after the command that made the change.
//
// Secrecy. No message here prints key bytes or anything derived from them, and a call site
// keeps only the derived scramble key. Key bytes are never a parameter of idseq's own SQL: a
// one-shot plan folds parameters into constants, which auto_explain's verbose plans of nested
// statements print ("Output:"), and from PostgreSQL 16 auto_explain also logs a statement's
// parameter values. The INSERT takes them from idseq_key_registry_pending() instead, a
// volatile call that plans and logs show as a call, which returns the bytes this backend is
// inserting at that moment and refuses at any other time (and which only the extension's
// owner, as whom the INSERT runs, may execute). t/070_named_keys.pl found the key in such a
// plan when it was a parameter.
#include "display_codec.h"

#include <cstring>

#include "core_call.h"
#include "quoted_text_pg.h"
#include "internal_sql.h"
#include "codec_named_keys.h"
#include "charset_registry.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_collation.h"
#include "catalog/pg_database.h"
#include "catalog/pg_type.h"
#include "commands/trigger.h"
#include "utils/acl.h"
#include "utils/array.h"
#include "utils/fmgroids.h"
#include "utils/inval.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
#include "utils/syscache.h"
}

extern "C" {
PG_FUNCTION_INFO_V1(idseq_create_key);
PG_FUNCTION_INFO_V1(idseq_import_key);
PG_FUNCTION_INFO_V1(idseq_export_key);
PG_FUNCTION_INFO_V1(idseq_drop_key);
PG_FUNCTION_INFO_V1(idseq_grant_key);
PG_FUNCTION_INFO_V1(idseq_revoke_key);
PG_FUNCTION_INFO_V1(idseq_key_registry_changed);
PG_FUNCTION_INFO_V1(idseq_key_registry_pending);
}

using idseq::kPublicIdKeyBytes;

namespace idseq::pg {

namespace {

constexpr size_t kMaxKeyNameBytes = NAMEDATALEN - 1;

// The registry table, looked up again after any invalidation of it.
struct Registry {
    Oid rel = InvalidOid;            // idseq_key_registry
    Oid name_index = InvalidOid;     // its primary key, on name
    Oid name_collation = InvalidOid; // the collation that index orders names by
    Oid owner = InvalidOid;          // the table's owner, who writes it
    bool valid = false;
};
Registry registry;

// Changes whenever a key, a role or a role membership may have changed: a NamedKeySlot
// filled under another generation is looked up again. Starts at 1: zeroed slots never match.
uint64 generation = 1;
bool callbacks_registered;

void on_relcache(Datum, Oid relid)
{
    if (relid == InvalidOid || relid == registry.rel || !OidIsValid(registry.rel)) {
        registry.valid = false;
        generation++;
    }
}

// A role's attributes (superuser, inherit) or a membership changed: USAGE may have.
void on_role_change(Datum, int, uint32)
{
    generation++;
}

void ensure_registry()
{
    if (unlikely(!callbacks_registered)) {
        CacheRegisterRelcacheCallback(on_relcache, (Datum) 0);
        CacheRegisterSyscacheCallback(AUTHOID, on_role_change, (Datum) 0);
        CacheRegisterSyscacheCallback(AUTHMEMROLEMEM, on_role_change, (Datum) 0);
        callbacks_registered = true;
    }
    if (likely(registry.valid))
        return;
    const uint64 start = generation;
    Oid nsp = extension_schema_oid(false);
    Oid rel = get_relname_relid("idseq_key_registry", nsp);
    if (!OidIsValid(rel))
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("extension \"idseq\" has no key registry in this database"),
                        errdetail("Named keys came with idseq 1.3."), errhint("Run ALTER EXTENSION idseq UPDATE.")));
    registry.rel = rel;
    Relation r = table_open(rel, AccessShareLock);
    registry.owner = r->rd_rel->relowner;
    registry.name_index = unique_index_on(r, 1, registry.name_collation); // the primary key
    table_close(r, AccessShareLock);
    // an invalidation that came while we looked makes the next call look again
    registry.valid = generation == start;
}

// One row of the registry: name (1), owner (2), usage (3: the roles granted USAGE), key (4).
struct KeyRow {
    Oid owner;
    ArrayType* usage; // palloc'd copy, or nullptr
    bool key_ok;      // key holds the row's key (32 bytes)
    unsigned char key[kPublicIdKeyBytes];
};

// The row of key `name`; false if there is none.
bool load_key(const char* name, KeyRow& row)
{
    ensure_registry();
    Relation rel = table_open(registry.rel, AccessShareLock);
    ScanKeyData skey;
    ScanKeyEntryInitialize(&skey, 0, 1, BTEqualStrategyNumber, InvalidOid,
                           OidIsValid(registry.name_collation) ? registry.name_collation : DEFAULT_COLLATION_OID,
                           F_TEXTEQ, CStringGetTextDatum(name));
    SysScanDesc scan = systable_beginscan(rel, registry.name_index, OidIsValid(registry.name_index), NULL, 1, &skey);
    HeapTuple t = systable_getnext(scan);
    const bool found = HeapTupleIsValid(t);
    if (found) {
        TupleDesc d = RelationGetDescr(rel);
        bool isnull;
        Datum owner = heap_getattr(t, 2, d, &isnull);
        row.owner = isnull ? InvalidOid : DatumGetObjectId(owner);
        Datum usage = heap_getattr(t, 3, d, &isnull);
        row.usage = isnull ? nullptr : DatumGetArrayTypePCopy(usage);
        Datum key = heap_getattr(t, 4, d, &isnull);
        row.key_ok = false;
        if (!isnull) {
            bytea* b = DatumGetByteaPP(key);
            if (VARSIZE_ANY_EXHDR(b) == kPublicIdKeyBytes) {
                memcpy(row.key, VARDATA_ANY(b), kPublicIdKeyBytes);
                row.key_ok = true;
            }
            if ((Pointer) b != DatumGetPointer(key)) { // a detoasted copy
                explicit_bzero(VARDATA_ANY(b), VARSIZE_ANY_EXHDR(b));
                pfree(b);
            }
        }
    }
    systable_endscan(scan);
    table_close(rel, AccessShareLock);
    return found;
}

bool is_owner(const KeyRow& row, Oid user)
{
    return has_privs_of_role(user, row.owner);
}

bool has_usage(const KeyRow& row, Oid user)
{
    if (is_owner(row, user))
        return true;
    if (!row.usage)
        return false;
    Datum* elems;
    bool* nulls;
    int n;
    deconstruct_array(row.usage, REGROLEOID, sizeof(Oid), true, TYPALIGN_INT, &elems, &nulls, &n);
    for (int i = 0; i < n; i++)
        if (!nulls[i] && has_privs_of_role(user, DatumGetObjectId(elems[i])))
            return true;
    return false;
}

[[noreturn]] void fail_unknown(const char* name)
{
    ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("key \"%s\" does not exist", shown(name)),
                    errhint("The view idseq_keys lists the keys of this database.")));
    pg_unreachable();
}

[[noreturn]] void fail_not_owner(const char* name)
{
    ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("must be owner of key \"%s\"", shown(name))));
    pg_unreachable();
}

[[noreturn]] void fail_damaged(const char* name)
{
    ereport(ERROR, (errcode(ERRCODE_DATA_CORRUPTED), errmsg("key \"%s\" is damaged", shown(name)),
                    errdetail("Its row in idseq_key_registry does not hold 32 key bytes.")));
    pg_unreachable();
}

void check_key_name(const char* name, size_t len)
{
    if (len == 0)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE), errmsg("key name must not be empty")));
    if (len > kMaxKeyNameBytes)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("key name \"%s\" is too long", shown(name, len)),
                        errdetail("A key name has at most %zu bytes; this one has %zu.", kMaxKeyNameBytes, len)));
}

// The key name of argument argno, checked; NULL is an error (the management functions are
// not STRICT, so that a NULL name fails loudly instead of doing nothing).
const char* key_name_arg(FunctionCallInfo fcinfo, int argno)
{
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("key name must not be null")));
    text* t = PG_GETARG_TEXT_PP(argno);
    check_key_name(VARDATA_ANY(t), VARSIZE_ANY_EXHDR(t));
    return text_to_cstring(t);
}

// The row of an existing key whose owner's privileges the current user has.
KeyRow owned_key(const char* name)
{
    KeyRow row;
    if (!load_key(name, row))
        fail_unknown(name);
    if (!is_owner(row, GetUserId()))
        fail_not_owner(name);
    return row;
}

// The registry, schema-qualified and quoted for SQL.
const char* registry_table()
{
    return extension_relation("idseq_key_registry");
}

// Runs one statement on the registry as the table's owner.
void write_registry(const char* query, int nargs, Oid* types, Datum* values)
{
    ensure_registry();
    const Oid owner = registry.owner;
    InternalSqlSaved saved;
    internal_sql_connect_as(owner, true, saved);
    internal_sql_run(query, nargs, types, values, nullptr, false, internal_sql_any_ok);
    internal_sql_finish_as(saved);
}

// The bytes of the key being inserted, for idseq_key_registry_pending(); set only while
// insert_key's INSERT runs.
struct Pending {
    bool set;
    unsigned char key[kPublicIdKeyBytes];
};
Pending pending;

// Adds key `name` with the given bytes, owned by the current user.
void insert_key(const char* name, const unsigned char (&key)[kPublicIdKeyBytes])
{
    // Keys are named objects of the database, like schemas and publications: making one
    // takes CREATE on the database, so that no role without it can take a name first.
    if (IDSEQ_DATABASE_ACLCHECK(MyDatabaseId, GetUserId(), ACL_CREATE) != ACLCHECK_OK)
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
                        errmsg("permission denied to create key \"%s\"", shown(name)),
                        errdetail("Creating a key takes the CREATE privilege on the current database."),
                        errhint("Ask the database's owner for it (GRANT CREATE ON DATABASE), or for USAGE on an existing key.")));
    KeyRow existing;
    if (load_key(name, existing))
        ereport(ERROR, (errcode(ERRCODE_DUPLICATE_OBJECT), errmsg("key \"%s\" already exists", shown(name))));
    Oid types[2] = {TEXTOID, REGROLEOID};
    Datum values[2] = {CStringGetTextDatum(name), ObjectIdGetDatum(GetUserId())};
    char* sql = psprintf("INSERT INTO %s (name, owner, key) VALUES ($1, $2, %s())", registry_table(),
                         extension_relation("idseq_key_registry_pending"));
    memcpy(pending.key, key, kPublicIdKeyBytes);
    pending.set = true;
    PG_TRY();
    {
        write_registry(sql, 2, types, values);
    }
    PG_FINALLY();
    {
        explicit_bzero(pending.key, kPublicIdKeyBytes);
        pending.set = false;
    }
    PG_END_TRY();
}

// The role of argument argno, which must exist.
Oid role_arg(FunctionCallInfo fcinfo, int argno)
{
    if (PG_ARGISNULL(argno))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("role must not be null")));
    Oid role = PG_GETARG_OID(argno);
    if (!SearchSysCacheExists1(AUTHOID, ObjectIdGetDatum(role)))
        ereport(ERROR, (errcode(ERRCODE_UNDEFINED_OBJECT), errmsg("role with OID %u does not exist", role)));
    return role;
}

// idseq_grant_key (grant) and idseq_revoke_key: (name, grantee), by the key's owner.
void change_usage(FunctionCallInfo fcinfo, bool grant)
{
    const char* name = key_name_arg(fcinfo, 0);
    const Oid role = role_arg(fcinfo, 1);
    KeyRow row = owned_key(name);
    explicit_bzero(row.key, sizeof row.key);
    if (grant && role == row.owner)
        return;
    Oid types[2] = {TEXTOID, REGROLEOID};
    Datum values[2] = {CStringGetTextDatum(name), ObjectIdGetDatum(role)};
    write_registry(grant ? psprintf("UPDATE %s SET usage = pg_catalog.array_append(usage, $2) "
                                    "WHERE name OPERATOR(pg_catalog.=) $1 AND $2 OPERATOR(pg_catalog.<>) ALL (usage)",
                                    registry_table())
                         : psprintf("UPDATE %s SET usage = pg_catalog.array_remove(usage, $2) "
                                    "WHERE name OPERATOR(pg_catalog.=) $1 AND $2 OPERATOR(pg_catalog.=) ANY (usage)",
                                    registry_table()),
                   2, types, values);
}

} // namespace

const idseq::ScrambleKey& named_key_for_use(text* name, NamedKeySlot& slot)
{
    const char* p = VARDATA_ANY(name);
    const size_t len = VARSIZE_ANY_EXHDR(name);
    const Oid user = GetUserId();
    if (likely(slot.generation == generation && slot.user == user && slot.name_len == (int) len &&
               memcmp(slot.name, p, len) == 0))
        return slot.key;
    check_key_name(p, len);
    char* cname = pnstrdup(p, len);
    ensure_registry();
    // read before the lookup: an invalidation that arrives during it makes the next call look again
    const uint64 start = generation;
    KeyRow row;
    if (!load_key(cname, row))
        fail_unknown(cname);
    if (!has_usage(row, user))
        ereport(ERROR, (errcode(ERRCODE_INSUFFICIENT_PRIVILEGE), errmsg("permission denied for key \"%s\"", shown(cname)),
                        errhint("The key's owner can grant USAGE on it with idseq_grant_key().")));
    if (!row.key_ok)
        fail_damaged(cname);
    idseq::ScrambleKey derived;
    run([&] { derived = idseq::public_id_key(row.key); });
    explicit_bzero(row.key, sizeof row.key);
    slot.generation = 0; // filled below; a slot is never half valid
    slot.key = derived;
    slot.user = user;
    memcpy(slot.name, p, len);
    slot.name_len = (int) len;
    slot.generation = start;
    return slot.key;
}

} // namespace idseq::pg

using namespace idseq::pg;

extern "C" {

// idseq_create_key(name text) RETURNS void: 256 bits from the strong random source
// PostgreSQL uses for gen_random_uuid() and SCRAM (pg_strong_random: OpenSSL's or the
// kernel's).
Datum idseq_create_key(PG_FUNCTION_ARGS)
{
    const char* name = key_name_arg(fcinfo, 0);
    unsigned char key[kPublicIdKeyBytes];
    if (!pg_strong_random(key, sizeof key))
        ereport(ERROR, (errcode(ERRCODE_INTERNAL_ERROR), errmsg("could not generate a random key")));
    insert_key(name, key);
    explicit_bzero(key, sizeof key);
    PG_RETURN_VOID();
}

// idseq_import_key(name text, key bytea) RETURNS void
Datum idseq_import_key(PG_FUNCTION_ARGS)
{
    const char* name = key_name_arg(fcinfo, 0);
    if (PG_ARGISNULL(1))
        ereport(ERROR, (errcode(ERRCODE_NULL_VALUE_NOT_ALLOWED), errmsg("key bytes must not be null")));
    bytea* b = PG_GETARG_BYTEA_PP(1);
    const size_t len = VARSIZE_ANY_EXHDR(b);
    if (len != kPublicIdKeyBytes)
        ereport(ERROR, (errcode(ERRCODE_INVALID_PARAMETER_VALUE),
                        errmsg("key \"%s\" must be %zu bytes long", shown(name), kPublicIdKeyBytes),
                        errdetail("The value given has %zu bytes.", len),
                        errhint("Import the bytes that idseq_export_key() returned.")));
    unsigned char key[kPublicIdKeyBytes];
    memcpy(key, VARDATA_ANY(b), kPublicIdKeyBytes);
    insert_key(name, key);
    explicit_bzero(key, sizeof key);
    PG_RETURN_VOID();
}

// idseq_export_key(name text) RETURNS bytea: the owner's (or a superuser's) only.
Datum idseq_export_key(PG_FUNCTION_ARGS)
{
    const char* name = key_name_arg(fcinfo, 0);
    KeyRow row = owned_key(name);
    if (!row.key_ok)
        fail_damaged(name);
    bytea* out = (bytea*) palloc(VARHDRSZ + kPublicIdKeyBytes);
    SET_VARSIZE(out, VARHDRSZ + kPublicIdKeyBytes);
    memcpy(VARDATA(out), row.key, kPublicIdKeyBytes);
    explicit_bzero(row.key, sizeof row.key);
    PG_RETURN_BYTEA_P(out);
}

// idseq_drop_key(name text) RETURNS void
Datum idseq_drop_key(PG_FUNCTION_ARGS)
{
    const char* name = key_name_arg(fcinfo, 0);
    KeyRow row = owned_key(name);
    explicit_bzero(row.key, sizeof row.key);
    Oid types[1] = {TEXTOID};
    Datum values[1] = {CStringGetTextDatum(name)};
    write_registry(psprintf("DELETE FROM %s WHERE name OPERATOR(pg_catalog.=) $1", registry_table()), 1, types, values);
    PG_RETURN_VOID();
}

// idseq_grant_key(name text, grantee regrole) RETURNS void: USAGE on the key (the owner
// has it already: nothing to record).
Datum idseq_grant_key(PG_FUNCTION_ARGS)
{
    change_usage(fcinfo, true);
    PG_RETURN_VOID();
}

// idseq_revoke_key(name text, grantee regrole) RETURNS void: takes USAGE back (silently
// when it was not granted, as REVOKE does).
Datum idseq_revoke_key(PG_FUNCTION_ARGS)
{
    change_usage(fcinfo, false);
    PG_RETURN_VOID();
}

// idseq_key_registry_pending() RETURNS bytea: the bytes insert_key is writing, to its INSERT
// (see the head of this file); an error at any other time.
Datum idseq_key_registry_pending(PG_FUNCTION_ARGS)
{
    if (!pending.set)
        ereport(ERROR, (errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
                        errmsg("no key is being created"),
                        errdetail("idseq_key_registry_pending() serves the INSERT of idseq_create_key() and idseq_import_key() only.")));
    bytea* out = (bytea*) palloc(VARHDRSZ + kPublicIdKeyBytes);
    SET_VARSIZE(out, VARHDRSZ + kPublicIdKeyBytes);
    memcpy(VARDATA(out), pending.key, kPublicIdKeyBytes);
    PG_RETURN_BYTEA_P(out);
}

// Statement trigger of idseq_key_registry (any INSERT, UPDATE, DELETE or TRUNCATE, also a
// superuser's own or a restore's): a relcache invalidation of the table, which every
// backend's key lookups watch (here at the end of the command, elsewhere at commit).
Datum idseq_key_registry_changed(PG_FUNCTION_ARGS)
{
    if (!CALLED_AS_TRIGGER(fcinfo))
        ereport(ERROR, (errcode(ERRCODE_E_R_I_E_TRIGGER_PROTOCOL_VIOLATED),
                        errmsg("idseq_key_registry_changed() was not called by the trigger manager")));
    TriggerData* td = (TriggerData*) fcinfo->context;
    CacheInvalidateRelcache(td->tg_relation);
    PG_RETURN_POINTER(NULL);
}

} // extern "C"
