// Snowflake ids: the idseq.* settings and the module's initialisation (the node id, the lease,
// the test clock offset, the number of shared-memory slots).
#include "sf_internal.h"

#include <climits>

#include "module.h"

extern "C" {
#include "utils/guc.h"
#include "utils/guc_tables.h"
}

using namespace snowflake;

namespace snowflake {

// ---- GUCs -----------------------------------------------------------------------------------

int node_id_guc = -1;
int lease_ms_guc = 1000;
int max_ahead_ms_guc = 0;
int clock_offset_ms_guc = 0;
int max_layouts_guc = 128; // shared-memory slots, fixed at server start

namespace {

// ---- The node id comes from the server configuration only -----------------------------------------

// Where this session's value of a setting not yet defined (a placeholder) came from.
GucSource placeholder_source(const char* name)
{
    int n = 0;
    struct config_generic** vars = IDSEQ_GET_GUC_VARIABLES(&n);
    for (int i = 0; i < n; i++)
        if (pg_strcasecmp(vars[i]->name, name) == 0)
            return vars[i]->source > vars[i]->reset_source ? vars[i]->source : vars[i]->reset_source;
    return PGC_S_DEFAULT;
}

// Without preload, PostgreSQL cannot refuse ALTER DATABASE/ROLE ... SET idseq.node_id (or a
// superuser's SET) in a session that has not loaded idseq: the value waits as a placeholder.
// When idseq loads, PostgreSQL refuses it ("cannot be changed now"), but the placeholder had
// replaced the server configuration's value, so the session would have no node id at all.
// Read the server configuration's value again, and say why the other one is ignored. The same
// for idseq.node_id_by_database.
void keep_server_setting(const char* name)
{
    ConfigVariable* head = nullptr;
    ConfigVariable* tail = nullptr;
    char* value = nullptr;
    if (ParseConfigFile(ConfigFileName, true, NULL, 0, 0, LOG, &head, &tail) && DataDir)
        (void) ParseConfigFile(PG_AUTOCONF_FILENAME, false, NULL, 0, 0, LOG, &head, &tail);
    for (ConfigVariable* v = head; v; v = v->next)
        if (pg_strcasecmp(v->name, name) == 0)
            value = pstrdup(v->value); // the last one wins, as when the server reads the files
    FreeConfigVariables(head);
    if (value)
        (void) set_config_option(name, value, PGC_SIGHUP, PGC_S_FILE, GUC_ACTION_SET, true, WARNING, false);
    ereport(WARNING, (errcode(ERRCODE_CANT_CHANGE_RUNTIME_PARAM),
                      errmsg("%s set for a database, a role or a session is ignored", name),
                      errdetail("Node ids come from the server configuration only; here %s is \"%s\".", name,
                                GetConfigOption(name, false, false)),
                      errhint("Remove the setting with ALTER DATABASE ... RESET %s or ALTER ROLE ... RESET "
                              "%s, and set it in postgresql.conf or with ALTER SYSTEM.",
                              name, name)));
}

} // namespace
} // namespace snowflake

// ---- Module initialisation ----------------------------------------------------------------------

void idseq_snowflake_init(void)
{
    const GucSource node_id_source = placeholder_source("idseq.node_id");
    const GucSource by_database_source = placeholder_source("idseq.node_id_by_database");
    DefineCustomIntVariable(
        "idseq.node_id", "This server's node id in snowflake ids.",
        "From -1 to 2147483647; -1 (the default) means unset. Each layout allows node ids up to its node "
        "field's maximum (1023 for snowflake). Settable only in the server configuration.",
        &node_id_guc, -1, -1, INT_MAX, PGC_SIGHUP, 0, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "idseq.snowflake_lease_ms", "How far ahead of the clock snowflake_nextval reserves time durably.",
        "From 0 to 3600000 milliseconds (default 1000). One WAL flush covers this much time of ids; after a crash "
        "ids continue above the reserved time, so they may run up to this far ahead of the clock.",
        &lease_ms_guc, 1000, 0, 3600000, PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "idseq.snowflake_max_ahead_ms",
        "How far ahead of the clock snowflake_nextval may run when a time unit's ids are spent.",
        "From 0 to 3600000 milliseconds (default 0: wait for the clock's next unit, as Twitter's generator does). "
        "Above 0, a burst goes on into the next units without waiting until its ids are this far ahead of the "
        "clock; ids stay unique and increasing.",
        &max_ahead_ms_guc, 0, 0, 3600000, PGC_SIGHUP, GUC_UNIT_MS, NULL, NULL, NULL);
    DefineCustomIntVariable(
        "idseq.test_clock_offset_ms", "For tests only: shifts the clock snowflake_nextval reads.",
        "From -2147483647 to 2147483647 milliseconds (default 0). A testing aid to step the clock back or forward "
        "without changing the system clock; superuser only.",
        &clock_offset_ms_guc, 0, -INT_MAX, INT_MAX, PGC_SUSET, GUC_UNIT_MS | GUC_NOT_IN_SAMPLE, NULL, NULL, NULL);
    if (process_shared_preload_libraries_in_progress) {
        // Only with preload: PostgreSQL refuses a PGC_POSTMASTER setting defined later. Before
        // MarkGUCPrefixReserved, which drops the placeholders of names not defined yet.
        DefineCustomIntVariable(
            "idseq.snowflake_max_layouts", "Shared-memory slots of the snowflake generator's fast path.",
            "From 1 to 10000 (default 128); used only with idseq in shared_preload_libraries, and read at server "
            "start. Each slot serves one layout definition with one node id, shared by every database of the "
            "server, for the server's life; definitions beyond them use the slower path without shared memory (a "
            "warning says so once). A slot takes a few hundred bytes of shared memory.",
            &max_layouts_guc, 128, 1, 10000, PGC_POSTMASTER, 0, NULL, NULL, NULL);
    }
    define_node_id_by_database();
    MarkGUCPrefixReserved("idseq");
    if (node_id_source > PGC_S_ARGV) // a value from a database, role or session setting
        keep_server_setting("idseq.node_id");
    if (by_database_source > PGC_S_ARGV)
        keep_server_setting("idseq.node_id_by_database");
    node_ids_defined();

    if (process_shared_preload_libraries_in_progress) {
        prev_shmem_request_hook = shmem_request_hook;
        shmem_request_hook = shmem_request;
        prev_shmem_startup_hook = shmem_startup_hook;
        shmem_startup_hook = shmem_startup;
    }
}
