package io.memogate.estimator.postgres;

import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.graph.CsgCmpCounter;
import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.MemoSize;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;
import io.memogate.estimator.postgres.JoinLists.Item;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
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
 *   <li>no relation is removed: useless left joins ({@code remove_useless_joins}) and self-joins on a
 *   unique key (PostgreSQL 18) are planned as if they stayed;
 *   <li>partitioned and inheritance tables are one relation each; partitionwise join (off by default)
 *   would multiply pairs by partitions;
 *   <li>equivalence classes are merged across outer-join domains (see {@link ProblemGraphs}).
 * </ul>
 */
public final class PostgresPlannerModel implements PlannerModel {

    private final PlannerSettings settings;
    private final CsgCmpCounter counter;
    private final IndexedColumns indexes;

    /** @param indexes the catalog's indexed columns, for the parameterized index scans; {@link IndexedColumns#NONE} */
    public PostgresPlannerModel(PlannerSettings settings, CsgCmpCounter counter, IndexedColumns indexes) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.counter = Objects.requireNonNull(counter, "counter");
        this.indexes = Objects.requireNonNull(indexes, "indexes");
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

    /** The searches for {@code statement} and, after them, for every block planned separately. */
    @Override
    public PlannerWork plan(QueryBlock statement) {
        List<JoinSearch> searches = new ArrayList<>();
        Deque<QueryBlock> blocks = new ArrayDeque<>();
        blocks.add(statement);
        int planned = 0;
        while (!blocks.isEmpty()) {
            QueryBlock block = blocks.removeFirst();
            planned++;
            JoinLists lists = new JoinLists(block, settings);
            ProblemGraphs graphs = new ProblemGraphs(lists.relationNames, lists.tables, lists.predicates, indexes,
                    lists.restrictions);
            solve(lists.joinlist, graphs, block.fastStart(), lists.tables, searches);
            blocks.addAll(lists.separatelyPlanned);
        }
        return new PlannerWork(searches, planned, 0);
    }

    /** {@code make_rel_from_joinlist}: sub-lists first, then this list if it has anything to join. */
    private void solve(List<Item> joinlist, ProblemGraphs graphs, boolean fastStart, List<Optional<String>> tables,
                       List<JoinSearch> searches) {
        for (Item item : joinlist) {
            if (item instanceof Item.Sub sub) {
                solve(sub.items(), graphs, fastStart, tables, searches);
            }
        }
        if (joinlist.size() >= 2) {
            int singlePathItems = (int) joinlist.stream()
                    .filter(item -> item instanceof Item.Leaf leaf && tables.get(leaf.relation()).isEmpty()).count();
            // The graph's vertex i is joinlist item i.
            int[] subProblems = IntStream.range(0, joinlist.size())
                    .filter(i -> joinlist.get(i) instanceof Item.Sub).toArray();
            searches.add(search(graphs.graph(joinlist), fastStart, singlePathItems, subProblems));
        }
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
