// Citus's catalogs as idseq reads them (see citus.h).
#include "citus.h"

extern "C" {
#include "access/genam.h"
#include "access/htup_details.h"
#include "access/table.h"
#include "catalog/pg_namespace.h"
#include "utils/builtins.h"
#include "utils/lsyscache.h"
#include "utils/rel.h"
}

#include <cstring>

namespace idseq::pg {
namespace {

// Calls row(tuple, descriptor) for each row of the catalog table rel until it returns false.
template <typename F> void scan_catalog(Oid rel, F row)
{
    Relation r = table_open(rel, AccessShareLock);
    SysScanDesc scan = systable_beginscan(r, InvalidOid, false, NULL, 0, NULL);
    for (HeapTuple tup; HeapTupleIsValid(tup = systable_getnext(scan));)
        if (!row(tup, RelationGetDescr(r)))
            break;
    systable_endscan(scan);
    table_close(r, AccessShareLock);
}

bool attr(HeapTuple tup, TupleDesc desc, AttrNumber att, Datum& out)
{
    bool isnull = true;
    if (att != InvalidAttrNumber)
        out = heap_getattr(tup, att, desc, &isnull);
    return !isnull;
}

} // namespace

int32 citus_local_group(Oid* rel_out)
{
    const Oid rel = get_relname_relid("pg_dist_local_group", PG_CATALOG_NAMESPACE);
    if (rel_out)
        *rel_out = rel;
    if (!OidIsValid(rel))
        return -1;
    const AttrNumber att = get_attnum(rel, "groupid");
    int32 group = -1;
    scan_catalog(rel, [&](HeapTuple tup, TupleDesc desc) {
        Datum d;
        if (attr(tup, desc, att, d))
            group = DatumGetInt32(d);
        return false;
    });
    return group;
}

bool citus_lists_group(int32 group)
{
    const Oid rel = get_relname_relid("pg_dist_node", PG_CATALOG_NAMESPACE);
    if (!OidIsValid(rel))
        return false;
    const AttrNumber group_att = get_attnum(rel, "groupid");
    const AttrNumber role_att = get_attnum(rel, "noderole");
    bool listed = false;
    scan_catalog(rel, [&](HeapTuple tup, TupleDesc desc) {
        Datum g, role;
        if (attr(tup, desc, group_att, g) && DatumGetInt32(g) == group) {
            // noderole is an enum (primary, secondary, unavailable): compare its label
            listed = !attr(tup, desc, role_att, role) ||
                strcmp(DatumGetCString(DirectFunctionCall1(enum_out, role)), "primary") == 0;
        }
        return !listed;
    });
    return listed;
}

} // namespace idseq::pg
