package io.memogate.estimator.planner;

import java.util.HashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

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
     */
    public record Partitioning(char strategy, int partitions) {
        public Partitioning {
            if (partitions < 0) {
                throw new IllegalArgumentException("partitions must be >= 0, was " + partitions);
            }
        }
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
