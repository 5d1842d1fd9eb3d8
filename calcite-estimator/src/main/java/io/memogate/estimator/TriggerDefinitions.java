package io.memogate.estimator;

import io.memogate.estimator.RoutineDefinitions.Routine;
import io.memogate.estimator.lexer.ChangedTables;
import io.memogate.estimator.lexer.ChangedTables.Change;
import io.memogate.estimator.lexer.TokenStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Triggers whose functions the server runs when a statement changes their table: a PL/pgSQL trigger
 * function plans each query of its body when it first reaches it in a session, while the INSERT, UPDATE,
 * DELETE, MERGE, COPY FROM or TRUNCATE that fired it runs. A statement that changes such a table needs, at
 * some point while it runs, what the largest of those queries needs, as a statement calling the function
 * would. Whoever reads the catalog ({@code pg_trigger}) passes the enabled ones along.
 *
 * <p>Tables are known by their unqualified names, as stored; a statement's target names them as PostgreSQL
 * folds them ({@link ChangedTables}), so {@code orders} is not {@code "Orders"}. A qualified target picks those
 * of its schema. A trigger counts whether or not its WHEN condition, its UPDATE OF columns or the rows changed
 * would let it fire: it may.
 *
 * <p>{@code TRUNCATE a CASCADE} also truncates every table whose foreign key references {@code a}, and those
 * referencing them in turn, and fires their TRUNCATE triggers too (PostgreSQL's ExecuteTruncate): the foreign
 * keys passed along with the triggers lead there. Immutable; compared by identity, as {@link RoutineDefinitions}.
 */
public final class TriggerDefinitions {

    /** No trigger known: the queries of trigger functions are not seen. */
    public static final TriggerDefinitions NONE = new TriggerDefinitions(Map.of(), Map.of(), 0);

    /**
     * One trigger.
     *
     * @param schema the schema of its table (or view, for an INSTEAD OF trigger), as stored
     * @param table that table's name, as stored
     * @param events the changes that fire it
     * @param function the function it runs
     * @param cloned a partition's clone of its partitioned parent's row trigger ({@code pg_trigger.tgparentid}):
     *     it fires for changes made to the partition by name, but is not a trigger anyone defined, so not counted
     */
    public record Trigger(String schema, String table, Set<Change> events, Routine function, boolean cloned) {
        public Trigger {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(table, "table");
            events = Set.copyOf(events);
            Objects.requireNonNull(function, "function");
        }

        /** A trigger defined on its table itself. */
        public Trigger(String schema, String table, Set<Change> events, Routine function) {
            this(schema, table, events, function, false);
        }

        boolean firedBy(ChangedTables.Target target) {
            return target.schema().map(schema::equals).orElse(true)
                    && target.changes().stream().anyMatch(events::contains);
        }
    }

    /**
     * A foreign key: rows of {@code schema.table} reference rows of {@code referencedSchema.referencedTable}, so a
     * {@code TRUNCATE ... CASCADE} of the referenced table truncates this one too. Names as stored.
     */
    public record ForeignKey(String schema, String table, String referencedSchema, String referencedTable) {
        public ForeignKey {
            Objects.requireNonNull(schema, "schema");
            Objects.requireNonNull(table, "table");
            Objects.requireNonNull(referencedSchema, "referencedSchema");
            Objects.requireNonNull(referencedTable, "referencedTable");
        }

        boolean references(ChangedTables.Target target) {
            return referencedTable.equals(target.table()) && target.schema().map(referencedSchema::equals).orElse(true);
        }
    }

    /** Per table name, the triggers on tables of that name. */
    private final Map<String, List<Trigger>> triggers;
    /** Per table name, the foreign keys referencing tables of that name. */
    private final Map<String, List<ForeignKey>> referencing;
    private final int size;

    private TriggerDefinitions(Map<String, List<Trigger>> triggers, Map<String, List<ForeignKey>> referencing,
                               int size) {
        this.triggers = triggers;
        this.referencing = referencing;
        this.size = size;
    }

    /** Triggers, and no foreign key known: a TRUNCATE ... CASCADE fires those of the tables it names only. */
    public static TriggerDefinitions of(Collection<Trigger> triggers) {
        return of(triggers, List.of());
    }

    /** Triggers, and the foreign keys a TRUNCATE ... CASCADE follows to more of them. */
    public static TriggerDefinitions of(Collection<Trigger> triggers, Collection<ForeignKey> foreignKeys) {
        Map<String, List<Trigger>> byTable = new HashMap<>();
        for (Trigger trigger : triggers) {
            byTable.computeIfAbsent(trigger.table(), name -> new ArrayList<>()).add(trigger);
        }
        Map<String, List<ForeignKey>> byReferenced = new HashMap<>();
        for (ForeignKey key : foreignKeys) {
            byReferenced.computeIfAbsent(key.referencedTable(), name -> new ArrayList<>()).add(key);
        }
        // In one order whatever order the catalog listed them in, so that a read again compares equal.
        byTable.replaceAll((name, list) -> list.stream()
                .sorted(Comparator.comparing(Trigger::schema).thenComparing(Trigger::table)
                        .thenComparing(trigger -> trigger.events().stream().sorted().toList().toString())
                        .thenComparing(trigger -> trigger.function().schema())
                        .thenComparing(trigger -> trigger.function().name())
                        .thenComparing(trigger -> trigger.function().body())
                        .thenComparing(Trigger::cloned)).toList());
        byReferenced.replaceAll((name, list) -> list.stream().distinct()
                .sorted(Comparator.comparing(ForeignKey::referencedSchema).thenComparing(ForeignKey::schema)
                        .thenComparing(ForeignKey::table)).toList());
        return byTable.isEmpty() ? NONE
                : new TriggerDefinitions(Map.copyOf(byTable), Map.copyOf(byReferenced),
                        (int) triggers.stream().filter(trigger -> !trigger.cloned()).count());
    }

    /** The functions of the triggers the statement of {@code ts} fires, in order of its targets, each once. */
    public List<Routine> firedBy(TokenStream ts) {
        if (triggers.isEmpty()) {
            return List.of();
        }
        Set<Routine> fired = new LinkedHashSet<>();
        for (ChangedTables.Target target : cascaded(ChangedTables.of(ts))) {
            for (Trigger trigger : triggers.getOrDefault(target.table(), List.of())) {
                if (trigger.firedBy(target)) {
                    fired.add(trigger.function());
                }
            }
        }
        return List.copyOf(fired);
    }

    /**
     * {@code targets}, and after them the tables a {@code TRUNCATE ... CASCADE} among them truncates too: those
     * whose foreign keys reference a truncated table, recursively, each once, by their exact schema.
     */
    private List<ChangedTables.Target> cascaded(List<ChangedTables.Target> targets) {
        if (referencing.isEmpty() || targets.stream().noneMatch(ChangedTables.Target::cascade)) {
            return targets;
        }
        List<ChangedTables.Target> all = new ArrayList<>(targets);
        Set<ForeignKey> followed = new HashSet<>();
        for (int i = 0; i < all.size(); i++) {
            ChangedTables.Target truncated = all.get(i);
            if (!truncated.cascade()) {
                continue;
            }
            for (ForeignKey key : referencing.getOrDefault(truncated.table(), List.of())) {
                if (key.references(truncated) && followed.add(key)) {
                    all.add(new ChangedTables.Target(Optional.of(key.schema()), key.table(),
                            Set.of(Change.TRUNCATE), true));
                }
            }
        }
        return all;
    }

    /** The triggers defined, as {@code CREATE TRIGGER} made them: a partition's clones are not counted. */
    public int size() {
        return size;
    }

    public boolean isEmpty() {
        return triggers.isEmpty();
    }

    /** Whether {@code other} holds the same triggers (a read again that found nothing new). */
    public boolean sameContent(TriggerDefinitions other) {
        return triggers.equals(other.triggers) && referencing.equals(other.referencing);
    }

    @Override
    public String toString() {
        return "TriggerDefinitions[" + size + " triggers]";
    }
}
