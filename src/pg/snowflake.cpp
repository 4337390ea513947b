// Snowflake ids: placeholder until the snowflake adapter lands.
#include "pg.h"

#include "module.h"

void idseq_snowflake_init(void) {}
