package io.memogate.estimator.planner;

import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.function.Function;

/**
 * The catalog's word on partitioned tables ({@code pg_partitioned_table}, {@code pg_inherits}): per table, how
 * it is partitioned and into how many partitions. PostgreSQL plans a partitioned table as an append relation
 * with a child relation and its paths per partition left after pruning, and, with
 * {@code enable_partitionwise_join}, each join of two tables partitioned alike as a child join per partition
 * too; the estimator reads SQL, so whoever can read the catalog passes this along. Without it ({@link #NONE})
 * every table is one relation.
 *
 * <p>Tables are known by their unqualified names, folded to lower case as PostgreSQL folds unquoted
 * identifiers; a name found in several schemas keeps its largest partitioning, the reading that counts more.
 * Immutable; compared by identity, so that the estimate cache can key on an instance cheaply.
 */
public final class PartitionedTables {

    /** No catalog: no table is known to be partitioned. */
    public static final PartitionedTables NONE = new PartitionedTables(Map.of());

    /**
     * How one table is partitioned.
     *
     * @param strategy PostgreSQL's {@code partstrat}: {@code h}ash, {@code l}ist or {@code r}ange
     * @param partitions the partitions below it, sub-partitions included
     * @param keys the partition key's columns, folded to lower case; empty when a key is an expression, which
     *     the estimator cannot match against a condition
     */
    public record Partitioning(char strategy, int partitions, List<String> keys) {
        public Partitioning {
            if (partitions < 0) {
                throw new IllegalArgumentException("partitions must be >= 0, was " + partitions);
            }
            keys = keys.stream().map(PartitionedTables::fold).toList();
        }

        /** A partitioning whose key is not known. */
        public Partitioning(char strategy, int partitions) {
            this(strategy, partitions, List.of());
        }

        /**
         * The partitions left to plan when each of the key's columns is pinned to at most as many values as
         * {@code pinned} says (empty: not pinned). Each value of a full key falls into one partition, so no more
         * partitions than value combinations survive; a key not fully pinned prunes nothing here (a range
         * key's prefix can prune, which is not modelled).
         */
        public int afterPruning(Function<String, OptionalInt> pinned) {
            if (keys.isEmpty()) {
                return partitions;
            }
            long combinations = 1;
            for (String key : keys) {
                OptionalInt values = pinned.apply(key);
                if (values.isEmpty()) {
                    return partitions;
                }
                combinations = Math.min((long) partitions, combinations * values.getAsInt());
            }
            return (int) combinations;
        }

        /** What a partitionwise join needs alike on both sides: the strategy and the number of partitions. */
        public Scheme scheme() {
            return new Scheme(strategy, partitions);
        }
    }

    /** A partitioning's strategy and partition count, whatever its key's columns are called. */
    public record Scheme(char strategy, int partitions) {
    }

    private final Map<String, Partitioning> tables;

    private PartitionedTables(Map<String, Partitioning> tables) {
        this.tables = tables;
    }

    /** @param tables per table name, its partitioning */
    public static PartitionedTables of(Map<String, Partitioning> tables) {
        Map<String, Partitioning> folded = new HashMap<>();
        tables.forEach((table, partitioning) -> folded.merge(fold(table), partitioning,
                (a, b) -> a.partitions() >= b.partitions() ? a : b));
        return folded.isEmpty() ? NONE : new PartitionedTables(Map.copyOf(folded));
    }

    /** How {@code table} is partitioned; empty for a table not known to be. */
    public Optional<Partitioning> of(String table) {
        return Optional.ofNullable(tables.get(fold(Objects.requireNonNull(table, "table"))));
    }

    /** Whether no table is known to be partitioned. */
    public boolean isEmpty() {
        return tables.isEmpty();
    }

    /** Whether {@code other} knows the same partitionings (a read again that found nothing new). */
    public boolean sameContent(PartitionedTables other) {
        return tables.equals(other.tables);
    }

    private static String fold(String name) {
        return name.toLowerCase(Locale.ROOT);
    }

    @Override
    public String toString() {
        return "PartitionedTables[" + tables.size() + " tables]";
    }
}
