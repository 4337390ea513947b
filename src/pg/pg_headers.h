// The one way src/pg/ sees PostgreSQL. Include the core's headers and the C++ standard
// library first, then this file: PostgreSQL's headers are C, and their port.h turns printf
// and friends into macros that break the C++ standard library, which we undo here.
#pragma once

extern "C" {
#include "postgres.h"

#include "fmgr.h"
#include "funcapi.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/elog.h"
#include "utils/memutils.h"

#include "compat.h"
}

#undef vsnprintf
#undef snprintf
#undef vsprintf
#undef sprintf
#undef vfprintf
#undef fprintf
#undef vprintf
#undef printf
#undef strerror
#undef strerror_r
