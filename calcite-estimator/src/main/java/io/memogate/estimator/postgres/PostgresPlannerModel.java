package io.memogate.estimator.postgres;

import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.graph.CsgCmpCounter;
import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.MemoSize;
import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.PartitionedTables;
import io.memogate.estimator.planner.PartitionedTables.Partitioning;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;
import io.memogate.estimator.postgres.JoinLists.Item;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.IntStream;

/**
 * The join search problems PostgreSQL (17) solves to plan a statement, and how large each one is.
 *
 * <p>How it mirrors PostgreSQL, step by step:
 * <ol>
 *   <li>{@code subquery_planner} runs once per query block: the statement's, then each separately
 *   planned one (sub-plans, set-operation branches, materialized CTEs, FROM sub-selects not pulled
 *   up). Pulling up sub-selects and sub-links ({@code pull_up_sublinks}, {@code pull_up_subqueries},
 *   src/backend/optimizer/prep/prepjointree.c) is decided by whoever builds the {@link QueryBlock}
 *   and only spliced in here.
 *   <li>{@code deconstruct_jointree} (src/backend/optimizer/plan/initsplan.c) splits each block's join
 *   tree into a joinlist under from_collapse_limit and join_collapse_limit; FULL JOINs are never
 *   flattened ({@link JoinLists}).
 *   <li>{@code make_rel_from_joinlist} (src/backend/optimizer/path/allpaths.c) solves every list of two
 *   or more items as one problem, sub-lists first: by {@code geqo} when {@code geqo} is on and the
 *   list has at least geqo_threshold items, else by {@code standard_join_search}, whose memo is
 *   counted by {@link CsgCmpCounter} on the problem's join graph ({@link ProblemGraphs}).
 * </ol>
 *
 * <p>Where it simplifies, always towards more work rather than less:
 * <ul>
 *   <li>outer, semi and anti joins restrict the join order as {@code join_is_legal} does
 *   ({@link SpecialJoins}, {@link io.memogate.estimator.graph.OrderRestriction}), with every join condition
 *   taken for strict and every semi join's right side for one that can be made unique; LATERAL references
 *   do not restrict it. A WHERE filter on one relation of an outer join's nullable side, which would make it
 *   an inner join, is not seen (only conditions over two or more relations are), so such a join keeps its
 *   restriction;
 *   <li>useless left joins are removed ({@code remove_useless_joins}, see {@link JoinLists}) when the nullable
 *   table is joined on a column named {@code id}, taken for its primary key unless the catalog's indexes say
 *   it leads none; self-joins on a unique key (PostgreSQL 18) are planned as if they stayed;
 *   <li>a partitioned table the catalog knows ({@link PartitionedTables}) adds a child relation per partition
 *   left after plan-time pruning: a key column equal to constants or parameters, directly or through an
 *   equivalence class ({@link PinnedColumns}), leaves at most one partition per value; with {@code enable_partitionwise_join}, every pair a search builds of relations partitioned
 *   alike (same strategy and number of partitions; PostgreSQL also needs the same bounds and a join on the
 *   partition keys, taken for granted here) adds a child join per partition; inheritance trees that are not
 *   partitioned tables are one relation;
 *   <li>equivalence classes are merged across outer-join domains (see {@link ProblemGraphs}).
 * </ul>
 *
 * <p>With {@code enable_memoize} off, a search planned for its first rows is counted as one planned for all of
 * them, and index scans parameterized by a join partner are counted only there, at the all-rows price: what the
 * first-rows and parameterization prices stand for is mostly the Memoize paths {@code match_unsorted_outer}
 * (src/backend/optimizer/path/joinpath.c) tries for every outer path against every parameterized path of a base
 * inner relation, but a search planned for its first rows still keeps the parameterized paths that start cheaply.
 * Without any index there is no such path, and a first-rows search then costs little more than an all-rows one,
 * Memoize on or off; so this holds with a catalog or without. On PostgreSQL 18.6, under wide collapse limits, a
 * star of ten dimensions planned in 10.1 MB for all rows and 11.2 MB with a LIMIT, either way; with primary keys
 * on the dimensions in 13.8 and 74.1 MB, and 12.7 MB with the LIMIT and Memoize off. The demo warehouse's LIMIT
 * reports planned in 7-18% of their memory with Memoize off and are estimated so at 0.82-1.14x (0.65-1.12x
 * without their parameterized paths); the accuracy corpora came within 2x above 1 MiB for 89-100% of their
 * statements, against 36-73% (all but the random corpus) when Memoize was not followed. This one is not towards
 * more work: TPC-DS's q25, whose first-rows planning is not Memoize's, is then under-estimated (0.40x).
 */
public final class PostgresPlannerModel implements PlannerModel {

    private final PlannerSettings settings;
    private final CsgCmpCounter counter;
    private final IndexedColumns indexes;
    private final PartitionedTables partitions;

    /**
     * @param indexes the catalog's indexed columns, for the parameterized index scans; {@link IndexedColumns#NONE}
     * @param partitions the catalog's partitioned tables; {@link PartitionedTables#NONE}
     */
    public PostgresPlannerModel(PlannerSettings settings, CsgCmpCounter counter, IndexedColumns indexes,
                                PartitionedTables partitions) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.counter = Objects.requireNonNull(counter, "counter");
        this.indexes = Objects.requireNonNull(indexes, "indexes");
        this.partitions = Objects.requireNonNull(partitions, "partitions");
    }

    /** Without partitioned tables. */
    public PostgresPlannerModel(PlannerSettings settings, CsgCmpCounter counter, IndexedColumns indexes) {
        this(settings, counter, indexes, PartitionedTables.NONE);
    }

    /** Without a catalog. */
    public PostgresPlannerModel(PlannerSettings settings, CsgCmpCounter counter) {
        this(settings, counter, IndexedColumns.NONE);
    }

    /** With the default step budget, without a catalog. */
    public PostgresPlannerModel(PlannerSettings settings) {
        this(settings, new CsgCmpCounter());
    }

    public PlannerSettings settings() {
        return settings;
    }

    /**
     * The searches for {@code statement} and, after them, for every block planned separately; a set operation's
     * operands count as its branches, not as blocks, and a set operation inside another counts as neither.
     */
    @Override
    public PlannerWork plan(QueryBlock statement) {
        List<JoinSearch> searches = new ArrayList<>();
        Deque<Planned> blocks = new ArrayDeque<>();
        blocks.add(new Planned(statement, false, CopiedJoins.IN_PLACE, false));
        int planned = 0;
        int branches = 0;
        Partitionwise children = new Partitionwise();
        double copied = 0;
        while (!blocks.isEmpty()) {
            Planned next = blocks.removeFirst();
            QueryBlock block = next.block();
            copied += next.copies() > 0 ? next.copies() * CopiedJoins.ofCopiedBlock(block.from())
                    : CopiedJoins.ofStatement(block.from());
            copied += CopiedJoins.ofPullUps(block.from());
            if (next.pulledUpBranch()) {
                copied += CopiedJoins.ofUnionAllBranch(block.from());
            }
            if (!next.operand()) {
                planned++;
            } else if (!block.setOperation()) {
                branches++;
            }
            JoinLists lists = new JoinLists(block, settings, table -> indexes == IndexedColumns.NONE
                    || indexes.leadsIndex(table, QueryBlock.KEY_COLUMN));
            PinnedColumns pins = new PinnedColumns(lists.predicates);
            // Without Memoize, neither the parameterized index scans nor planning for the first rows cost what they
            // are priced at (see the class comment): the search is counted as planned for all its rows, over tables
            // without such indexes, unless planned for its first rows, which keeps the parameterized paths.
            ProblemGraphs graphs = new ProblemGraphs(lists.relationNames, lists.tables, lists.predicates,
                    settings.memoize() || block.fastStart() ? indexes : IndexedColumns.NONE, lists.restrictions, pins);
            Relations relations = new Relations(lists.relationNames, lists.tables, pins);
            solve(lists.joinlist, graphs, block.fastStart() && settings.memoize(), relations, searches, children);
            if (settings.partitionwiseAggregate() && block.aggregates()) {
                children.groupings += groupedPartitions(lists.joinlist, relations);
            }
            // Blocks planned apart are copies, but a set operation's branches only when it is itself a copy or,
            // at the top of its tree, UNION ALL throughout (pulled up into an append relation, at a higher cost a
            // relation than a sub-select's copy: CopiedJoins.UNION_ALL_BRANCH).
            boolean isCopy = next.copies() > 0;
            double branchCopies = block.unionAll() && (isCopy || !next.operand()) ? CopiedJoins.UNION_ALL_BRANCH
                    : isCopy ? CopiedJoins.COPIED : CopiedJoins.IN_PLACE;
            // Only the statement's own UNION ALL was measured for what its branches' relations add.
            boolean pulledUpBranches = block.setOperation() && block.unionAll()
                    && (next.pulledUpBranch() || !isCopy && !next.operand());
            for (QueryBlock separate : lists.separatelyPlanned) {
                blocks.add(new Planned(separate, block.setOperation(),
                        block.setOperation() ? branchCopies : CopiedJoins.COPIED, pulledUpBranches));
            }
        }
        return new PlannerWork(searches, planned, branches).withPartitions(children.partitions, children.pairs,
                        children.groupings)
                .withCopiedJoinRelations(copied);
    }

    /** What the partitioned tables add to a statement's searches. */
    private static final class Partitionwise {
        double partitions;
        double pairs;
        double groupings;
    }

    /**
     * The child grouping relations of partitionwise aggregation over a block's scan/join relation
     * ({@code create_partitionwise_grouping_paths}, src/backend/optimizer/plan/planner.c): one per partition left
     * after pruning when that relation is partitioned, that is one partitioned table, or a join of tables all
     * partitioned alike with partitionwise joins on (its fewest partitions); 0 otherwise. Whether the GROUP BY
     * holds the partition key (full partitionwise aggregation) or not (partial, with a Finalize above) is not
     * told apart: on PostgreSQL 18.6 a child cost 3.9 kB with no GROUP BY, 5.7 kB grouped by another column and
     * 6.9 kB grouped by the key.
     */
    private double groupedPartitions(List<Item> joinlist, Relations relations) {
        List<Item.Leaf> leaves = new ArrayList<>();
        leaves(joinlist, leaves);
        if (leaves.isEmpty() || leaves.size() > 1 && !settings.partitionwiseJoin()) {
            return 0;
        }
        List<Optional<Partitioning>> schemes = leaves.stream().map(leaf -> partitioning(relations.tables(), leaf))
                .toList();
        if (schemes.stream().anyMatch(Optional::isEmpty)
                || schemes.stream().map(p -> p.orElseThrow().scheme()).distinct().count() > 1) {
            return 0;
        }
        return leaves.stream().mapToInt(leaf -> livePartitions(relations, leaf)).min().orElse(0);
    }

    private static void leaves(List<Item> joinlist, List<Item.Leaf> into) {
        for (Item item : joinlist) {
            if (item instanceof Item.Sub sub) {
                leaves(sub.items(), into);
            } else if (item instanceof Item.Leaf leaf) {
                into.add(leaf);
            }
        }
    }

    /** A block's relations: their names, the tables they scan, and the columns its conditions pin. */
    private record Relations(List<String> names, List<Optional<String>> tables, PinnedColumns pins) {
    }

    /**
     * A block to plan, whether it is an operand of a set operation, and how PostgreSQL copies its query tree before
     * planning it: the weight of its JOINs' relations, 0 for a block planned in place ({@link CopiedJoins}); and
     * whether it is a branch of the statement's own UNION ALL, whose relations are copied too.
     */
    private record Planned(QueryBlock block, boolean operand, double copies, boolean pulledUpBranch) {
    }

    /** {@code make_rel_from_joinlist}: sub-lists first, then this list if it has anything to join. */
    private void solve(List<Item> joinlist, ProblemGraphs graphs, boolean fastStart, Relations relations,
                       List<JoinSearch> searches, Partitionwise children) {
        List<Optional<String>> tables = relations.tables();
        for (Item item : joinlist) {
            if (item instanceof Item.Sub sub) {
                solve(sub.items(), graphs, fastStart, relations, searches, children);
            } else if (item instanceof Item.Leaf leaf) {
                children.partitions += livePartitions(relations, leaf);
            }
        }
        if (joinlist.size() >= 2) {
            int singlePathItems = (int) joinlist.stream()
                    .filter(item -> item instanceof Item.Leaf leaf && tables.get(leaf.relation()).isEmpty()).count();
            // The graph's vertex i is joinlist item i.
            int[] subProblems = IntStream.range(0, joinlist.size())
                    .filter(i -> joinlist.get(i) instanceof Item.Sub).toArray();
            JoinGraph graph = graphs.graph(joinlist);
            JoinSearch search = search(graph, fastStart, singlePathItems, subProblems);
            searches.add(search);
            if (settings.partitionwiseJoin() && search instanceof JoinSearch.DynamicProgramming) {
                children.pairs += partitionwisePairs(joinlist, graph, relations);
            }
        }
    }

    private Optional<Partitioning> partitioning(List<Optional<String>> tables, Item.Leaf leaf) {
        return tables.get(leaf.relation()).flatMap(partitions::of).filter(p -> p.partitions() > 0);
    }

    /** The partitions of {@code leaf}'s table left after plan-time pruning; 0 for a table not partitioned. */
    private int livePartitions(Relations relations, Item.Leaf leaf) {
        String name = relations.names().get(leaf.relation());
        return partitioning(relations.tables(), leaf)
                .map(p -> p.afterPruning(key -> relations.pins().values(name, key)))
                .orElse(0);
    }

    /**
     * Child joins of the partitionwise joins of one search: per group of its items partitioned alike, the
     * pairs the search builds within the group (those of the group's induced join graph, since a join relation
     * holding any other item is not partitioned), each once per partition both sides kept after pruning. A
     * join relation made only of tables that kept every partition has them all; one holding a pruned table
     * has that table's few (its other child joins are empty: an inner join needs both sides).
     */
    private double partitionwisePairs(List<Item> joinlist, JoinGraph graph, Relations relations) {
        Map<PartitionedTables.Scheme, List<Integer>> alike = new HashMap<>();
        Map<Integer, Integer> live = new HashMap<>();
        Map<PartitionedTables.Scheme, Boolean> keysConstant = new HashMap<>();
        for (int i = 0; i < joinlist.size(); i++) {
            if (joinlist.get(i) instanceof Item.Leaf leaf) {
                int vertex = i;
                partitioning(relations.tables(), leaf).ifPresent(p -> {
                    alike.computeIfAbsent(p.scheme(), k -> new ArrayList<>()).add(vertex);
                    live.put(vertex, livePartitions(relations, leaf));
                    keysConstant.merge(p.scheme(), keysConstant(relations, leaf, p), Boolean::logicalAnd);
                });
            }
        }
        double pairs = 0;
        for (Map.Entry<PartitionedTables.Scheme, List<Integer>> group : alike.entrySet()) {
            List<Integer> members = group.getValue();
            if (members.size() < 2) {
                continue;
            }
            // Keys equal to one constant join no clause, yet PostgreSQL knows them equal through their class
            // and joins the tables partitionwise all the same: every pair counts, Cartesian or not.
            boolean everyPair = keysConstant.get(group.getKey());
            int whole = members.stream().mapToInt(live::get).max().orElseThrow();
            int fewest = members.stream().mapToInt(live::get).min().orElseThrow();
            int[] unpruned = members.stream().filter(v -> live.get(v) == whole).mapToInt(Integer::intValue).toArray();
            double all = joinedPairs(graph, members.stream().mapToInt(Integer::intValue).toArray(), everyPair);
            double amongUnpruned = unpruned.length >= 2 ? joinedPairs(graph, unpruned, everyPair) : 0;
            pairs += amongUnpruned * whole + (all - amongUnpruned) * fewest;
        }
        return pairs;
    }

    /** The pairs a search builds among {@code vertices}; Cartesian ones only when {@code cartesianToo}. */
    private double joinedPairs(JoinGraph graph, int[] vertices, boolean cartesianToo) {
        MemoSize memo = counter.count(graph.induced(vertices));
        return cartesianToo ? memo.pairs() : memo.pairs() - memo.cartesianPairs();
    }

    /** Whether every column of {@code leaf}'s partition key is equal to one constant. */
    private static boolean keysConstant(Relations relations, Item.Leaf leaf, Partitioning partitioning) {
        String name = relations.names().get(leaf.relation());
        return !partitioning.keys().isEmpty() && partitioning.keys().stream()
                .allMatch(key -> relations.pins().constant(new ColumnRef(name, key)));
    }

    /**
     * One problem: GEQO at or above geqo_threshold items when geqo is on, dynamic programming otherwise.
     *
     * @param subProblems the vertices that are sub-problems' results, planned before this search
     */
    JoinSearch search(JoinGraph graph, boolean fastStart, int singlePathItems, int[] subProblems) {
        int items = graph.size();
        if (settings.geqo() && items >= settings.geqoThreshold()) {
            int poolSize = settings.geqoPoolSizeFor(items);
            return new JoinSearch.Geqo(graph, poolSize, settings.geqoGenerationsFor(poolSize), fastStart,
                    singlePathItems);
        }
        MemoSize memo = counter.count(graph);
        return new JoinSearch.DynamicProgramming(graph, memo, fastStart, singlePathItems,
                counter.linkedPairsHolding(graph, memo, subProblems));
    }
}
