// Per-area initialisation, called from _PG_init (src/pg/module.cpp).
#pragma once

// GUC idseq.node_id and, under shared_preload_libraries, the shared-memory fast path.
void idseq_snowflake_init(void);
// The planner hook that reads untyped lexid operands in the charset of the typed operand.
void idseq_lexid_plan_init(void);
// The derived id conditions of time predicates (src/pg/sf_time_quals.cpp).
void idseq_snowflake_time_quals_init(void);
// Under shared_preload_libraries, the counters' shared hints (src/pg/counter_hints.cpp).
void idseq_counter_hints_init(void);
