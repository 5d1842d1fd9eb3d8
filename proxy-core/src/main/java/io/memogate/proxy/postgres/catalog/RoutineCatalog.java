package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.RoutineDefinitions.Language;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Reads a database's {@link RoutineDefinitions}: its functions and procedures in PL/pgSQL and SQL, whose
 * queries the server plans while a statement that calls them runs, with their bodies: {@code prosrc}, or for
 * a {@code BEGIN ATOMIC} body (PostgreSQL 14+) the statements inside it, and their SET clauses
 * ({@code proconfig}), under which their queries are planned, and how many arguments a call passes, so that
 * an overload taking another number is not counted. Trigger functions, which no
 * statement calls by name, system schemas and other sessions' temporary ones are left out, and so are
 * bodies past the {@link DefinitionBudget}, shortest kept first.
 */
public final class RoutineCatalog {

    private static final String QUERY = """
            SELECT nspname, proname, lanname, body, proconfig, min_args, max_args FROM (
                SELECT n.nspname, p.proname, l.lanname, %s AS body, p.proconfig,
                       p.pronargs - p.pronargdefaults AS min_args,
                       CASE WHEN p.provariadic <> 0 OR p.prokind = 'p' THEN -1 ELSE p.pronargs END AS max_args
                FROM pg_catalog.pg_proc p
                JOIN pg_catalog.pg_namespace n ON n.oid = p.pronamespace
                JOIN pg_catalog.pg_language l ON l.oid = p.prolang
                WHERE l.lanname IN ('plpgsql', 'sql') AND p.prokind IN ('f', 'p')
                  AND p.prorettype NOT IN ('pg_catalog.trigger'::pg_catalog.regtype,
                                           'pg_catalog.event_trigger'::pg_catalog.regtype)
                  AND n.nspname NOT IN ('pg_catalog', 'information_schema')
                  AND n.nspname !~ '^pg_(toast_)?temp_') routines
            ORDER BY length(body), nspname, proname, body""";

    private RoutineCatalog() {
    }

    /** The PL/pgSQL and SQL routines of the database {@code connection} is connected to. */
    public static RoutineDefinitions read(Connection connection) throws SQLException {
        return RoutineDefinitions.of(DefinitionBudget.read(connection,
                QUERY.formatted(FunctionCatalog.bodyColumn(connection)), 4, "functions and procedures",
                "the queries they run are not seen", (row, body) -> RoutineDefinitions.Routine.of(row.getString(1),
                        row.getString(2), "plpgsql".equals(row.getString(3)) ? Language.PLPGSQL : Language.SQL,
                        FunctionCatalog.withinAtomic(body), settings(row.getArray(5)))
                        .withArguments(row.getInt(6), maxArguments(row.getInt(7)))));
    }

    /**
     * {@code pronargs}, or no bound (-1 in the query) for a VARIADIC routine and for a procedure: a CALL
     * passes a procedure's OUT arguments too (PostgreSQL 14+), which {@code pronargs} may or may not count.
     */
    private static int maxArguments(int maxArgs) {
        return maxArgs < 0 ? RoutineDefinitions.Routine.ANY_NUMBER : maxArgs;
    }

    /** {@code proconfig}: {@code name=value} entries, or null for a routine without SET clauses. */
    static List<String> settings(Array proconfig) throws SQLException {
        if (proconfig == null) {
            return List.of();
        }
        try {
            return List.of((String[]) proconfig.getArray());
        } finally {
            proconfig.free();
        }
    }
}
