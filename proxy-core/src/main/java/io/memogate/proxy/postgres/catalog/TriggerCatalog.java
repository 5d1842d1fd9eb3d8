package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.RoutineDefinitions.Language;
import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.TriggerDefinitions;
import io.memogate.estimator.TriggerDefinitions.ForeignKey;
import io.memogate.estimator.TriggerDefinitions.Trigger;
import io.memogate.estimator.lexer.ChangedTables.Change;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

/**
 * Reads a database's {@link TriggerDefinitions}: the triggers that fire in an ordinary session
 * ({@code tgenabled} origin or always; not the internal ones of foreign keys, whose functions are C) and run a
 * PL/pgSQL function, with the events that fire them and the function's body and SET clauses. A function
 * several triggers run (a partition's clones of its parent's) is read once, with all of them; the clones fire for
 * their partitions but are not counted as triggers of their own. System schemas
 * and other sessions' temporary tables are left out, and so are bodies past the {@link DefinitionBudget},
 * shortest kept first. With them, the foreign keys by which a {@code TRUNCATE ... CASCADE} reaches a table with
 * such a TRUNCATE trigger: only those, so a database without one reads none.
 */
public final class TriggerCatalog {

    /** {@code pg_trigger.tgtype} bits: PostgreSQL's TRIGGER_TYPE_INSERT, _DELETE, _UPDATE and _TRUNCATE. */
    private static final int INSERT = 1 << 2;
    private static final int DELETE = 1 << 3;
    private static final int UPDATE = 1 << 4;
    private static final int TRUNCATE = 1 << 5;

    /**
     * One row per function, with the tables whose triggers run it: a row trigger on a partitioned table is
     * cloned to each partition (pg_trigger.tgparentid), and a body read once per clone would be sent and
     * counted against the {@link DefinitionBudget} hundreds of times, leaving other triggers out.
     */
    private static final String QUERY = """
            SELECT fn.nspname, p.proname, p.prosrc, p.proconfig,
                   array_agg(tn.nspname::text ORDER BY tn.nspname, c.relname, t.tgname),
                   array_agg(c.relname::text ORDER BY tn.nspname, c.relname, t.tgname),
                   array_agg(t.tgtype::int ORDER BY tn.nspname, c.relname, t.tgname),
                   array_agg(%s ORDER BY tn.nspname, c.relname, t.tgname)
            FROM pg_catalog.pg_trigger t
            JOIN pg_catalog.pg_class c ON c.oid = t.tgrelid
            JOIN pg_catalog.pg_namespace tn ON tn.oid = c.relnamespace
            JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
            JOIN pg_catalog.pg_namespace fn ON fn.oid = p.pronamespace
            JOIN pg_catalog.pg_language l ON l.oid = p.prolang
            WHERE NOT t.tgisinternal AND t.tgenabled IN ('O', 'A') AND l.lanname = 'plpgsql'
              AND tn.nspname NOT IN ('pg_catalog', 'information_schema')
              AND tn.nspname !~ '^pg_(toast_)?temp_'
            GROUP BY p.oid, fn.nspname, p.proname, p.prosrc, p.proconfig
            ORDER BY length(p.prosrc), fn.nspname, p.proname""";

    /**
     * The foreign keys on the paths to the tables with a TRUNCATE trigger (the seed, filtered as above), found
     * backwards: a table reached references one that a cascade from there truncates. Partitions' clones of a
     * key (pg_constraint.conparentid) reference as their parent's does, and are found as PostgreSQL's
     * heap_truncate_find_FKs finds them, by conrelid and confrelid.
     */
    private static final String FOREIGN_KEYS = """
            WITH RECURSIVE reached(relid) AS (
                SELECT t.tgrelid
                FROM pg_catalog.pg_trigger t
                JOIN pg_catalog.pg_proc p ON p.oid = t.tgfoid
                JOIN pg_catalog.pg_language l ON l.oid = p.prolang
                WHERE NOT t.tgisinternal AND t.tgenabled IN ('O', 'A') AND l.lanname = 'plpgsql'
                  AND (t.tgtype & %d) <> 0
                UNION
                SELECT k.confrelid
                FROM pg_catalog.pg_constraint k JOIN reached r ON k.conrelid = r.relid
                WHERE k.contype = 'f')
            SELECT DISTINCT n.nspname, c.relname, rn.nspname, rc.relname
            FROM pg_catalog.pg_constraint k
            JOIN reached r ON r.relid = k.conrelid
            JOIN pg_catalog.pg_class c ON c.oid = k.conrelid
            JOIN pg_catalog.pg_namespace n ON n.oid = c.relnamespace
            JOIN pg_catalog.pg_class rc ON rc.oid = k.confrelid
            JOIN pg_catalog.pg_namespace rn ON rn.oid = rc.relnamespace
            WHERE k.contype = 'f'
              AND n.nspname NOT IN ('pg_catalog', 'information_schema') AND n.nspname !~ '^pg_(toast_)?temp_'
            ORDER BY 1, 2, 3, 4""".formatted(TRUNCATE);

    private TriggerCatalog() {
    }

    /**
     * PostgreSQL 13 marks a partition's clone of its parent's trigger with {@code tgparentid}; before, clones were
     * {@code tgisinternal}, which the query leaves out.
     */
    private static final int PARENT_ID_VERSION = 13;

    /** The enabled PL/pgSQL triggers of the database {@code connection} is connected to. */
    public static TriggerDefinitions read(Connection connection) throws SQLException {
        String clone = connection.getMetaData().getDatabaseMajorVersion() >= PARENT_ID_VERSION
                ? "t.tgparentid <> 0" : "false";
        List<List<Trigger>> byFunction = DefinitionBudget.read(connection, QUERY.formatted(clone), 3,
                "trigger functions",
                "the queries they run are not seen", (row, body) -> {
                    Routine function = Routine.of(row.getString(1), row.getString(2), Language.PLPGSQL, body,
                            RoutineCatalog.settings(row.getArray(4)));
                    String[] schemas = (String[]) row.getArray(5).getArray();
                    String[] tables = (String[]) row.getArray(6).getArray();
                    Integer[] types = (Integer[]) row.getArray(7).getArray();
                    Boolean[] clones = (Boolean[]) row.getArray(8).getArray();
                    List<Trigger> triggers = new ArrayList<>(tables.length);
                    for (int i = 0; i < tables.length; i++) {
                        triggers.add(new Trigger(schemas[i], tables[i], events(types[i]), function, clones[i]));
                    }
                    return triggers;
                });
        return TriggerDefinitions.of(byFunction.stream().flatMap(List::stream).toList(), foreignKeys(connection));
    }

    private static List<ForeignKey> foreignKeys(Connection connection) throws SQLException {
        List<ForeignKey> keys = new ArrayList<>();
        try (Statement statement = connection.createStatement();
             ResultSet rows = statement.executeQuery(FOREIGN_KEYS)) {
            while (rows.next()) {
                keys.add(new ForeignKey(rows.getString(1), rows.getString(2), rows.getString(3), rows.getString(4)));
            }
        }
        return keys;
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
