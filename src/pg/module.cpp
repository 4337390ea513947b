// Module entry: the magic block and _PG_init, which hands off to each area's init.
#include "pg_headers.h"

#include "module.h"

extern "C" {
IDSEQ_MODULE_MAGIC;

void _PG_init(void);

void _PG_init(void)
{
    idseq_snowflake_init();
    idseq_lexid_plan_init();
    idseq_snowflake_time_quals_init();
    idseq_counter_hints_init();
}
}
