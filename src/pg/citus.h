// What idseq reads of Citus's catalogs, straight from the catalog tables (not through SPI, so
// that Citus's planner hooks never see the reads): the node's group, and whether the cluster's
// node list names a group. Without Citus's catalogs in this database, "no Citus".
#pragma once

#include "pg_headers.h"

namespace idseq::pg {

// The node's Citus group (0: the coordinator, or a node in no cluster yet), or -1 without
// Citus's catalogs. rel_out, when given, gets pg_dist_local_group's OID (InvalidOid: none).
int32 citus_local_group(Oid* rel_out = nullptr);
// Whether pg_dist_node lists a primary node of that group (false without Citus's catalogs):
// a worker that no coordinator has added yet lists none, and its group is 0 as the
// coordinator's is.
bool citus_lists_group(int32 group);

} // namespace idseq::pg
