package io.memogate.proxy.catalog;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.TriggerDefinitions;
import io.memogate.estimator.TriggerDefinitions.Trigger;
import io.memogate.estimator.lexer.ChangedTables.Change;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads a database's {@link TriggerDefinitions}: the triggers that fire in an ordinary session
 * ({@code tgenabled} origin or always; not the internal ones of foreign keys, whose functions are C) and run a
 * PL/pgSQL function, with the events that fire them and the function's body and SET clauses. A function
 * several triggers run is read once. System schemas and other sessions' temporary tables are left out, and
 * so are bodies past the {@link DefinitionBudget}, shortest kept first.
 */
public final class TriggerCatalog {

    /** {@code pg_trigger.tgtype} bits: PostgreSQL's TRIGGER_TYPE_INSERT, _DELETE, _UPDATE and _TRUNCATE. */
    private static final int INSERT = 1 << 2;
    private static final int DELETE = 1 << 3;
    private static final int UPDATE = 1 << 4;
    private static final int TRUNCATE = 1 << 5;

    private static final String QUERY = """
            SELECT tn.nspname, c.relname, t.tgtype, fn.nspname, p.proname, p.prosrc, p.proconfig
            FROM pg_catalog.pg_trigger t
            JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace tn ON tn.oid = c.relnamespace
            JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
            JOIN pg_catalog.pg_namespace fn ON fn.oid = p.pronamespace
            JOIN pg_catalog.pg_language l ON l.oid = p.prolang
            WHERE NOT t.tgisinternal AND t.tgenabled IN ('O', 'A') AND l.lanname = 'plpgsql'
              AND tn.nspname NOT IN ('pg_catalog', 'information_schema')
              AND tn.nspname !~ '^pg_(toast_)?temp_'
            ORDER BY length(p.prosrc), tn.nspname, c.relname, t.tgname""";

    private TriggerCatalog() {
    }

    /** The enabled PL/pgSQL triggers of the database {@code connection} is connected to. */
    public static TriggerDefinitions read(Connection connection) throws SQLException {
        Map<FunctionKey, Routine> functions = new HashMap<>();
        return TriggerDefinitions.of(DefinitionBudget.read(connection, QUERY, 6, "trigger functions",
                "the queries they run are not seen", (row, body) -> {
                    FunctionKey key = new FunctionKey(row.getString(4), row.getString(5), body,
                            RoutineCatalog.settings(row.getArray(7)));
                    Routine function = functions.computeIfAbsent(key, k -> Routine.of(k.schema(), k.name(),
                            Language.PLPGSQL, k.body(), k.settings()));
                    return new Trigger(row.getString(1), row.getString(2), events(row.getInt(3)), function);
                }));
    }

    /** A trigger function as read: those of several triggers are read off their body once. */
    private record FunctionKey(String schema, String name, String body, List<String> settings) {
    }

    static Set<Change> events(int tgtype) {
        Set<Change> events = EnumSet.noneOf(Change.class);
        if ((tgtype & INSERT) != 0) {
            events.add(Change.INSERT);
        }
        if ((tgtype & UPDATE) != 0) {
            events.add(Change.UPDATE);
        }
        if ((tgtype & DELETE) != 0) {
            events.add(Change.DELETE);
        }
        if ((tgtype & TRUNCATE) != 0) {
            events.add(Change.TRUNCATE);
        }
        return events;
    }
}
