package io.memogate.estimator.mysql;

import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.planner.BlockGraph;
import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;
import io.memogate.estimator.planner.TableStatistics;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The join searches MySQL's and MariaDB's optimizer runs for a statement, and how long each takes: one greedy
 * search per SELECT block over all its tables ({@link BlockGraph}), then one per block planned on its own
 * (derived tables not merged, sub-queries that stay sub-queries, UNION branches). A block of one table has no
 * search. Where the catalog's statistics know every table of a search, the search is replayed on them
 * ({@link CostBoundSearch}): its time is the extensions it prices plus a time per table. Otherwise the time is
 * its partial orders counted from the join graph ({@link GreedySearchSpace}) times the cost of evaluating one,
 * which differs by an order of magnitude between a search that prunes and one that does not (each pruned step
 * evaluates every table's access paths to choose the one to keep); without pruning that count is an upper
 * bound, as it cannot tell which orders the cost bound cuts.
 */
public final class MySqlPlannerModel implements PlannerModel {

    /**
     * Extensions a replayed search prices exactly (tens of milliseconds of the estimator's time, about 50 ms of
     * MariaDB's): past it the search is long, and the rest of it sampled in half as many more.
     */
    static final long PRICED_BUDGET = 300_000;

    private final OptimizerSettings settings;
    private final MySqlCoefficients coefficients;
    private final TableStatistics statistics;
    private final GreedySearchSpace space;
    private final long pricedBudget;

    public MySqlPlannerModel(OptimizerSettings settings, MySqlCoefficients coefficients) {
        this(settings, coefficients, TableStatistics.NONE);
    }

    /** @param statistics the tables' statistics: with them a search is replayed, without it is counted */
    public MySqlPlannerModel(OptimizerSettings settings, MySqlCoefficients coefficients, TableStatistics statistics) {
        this(settings, coefficients, statistics, PRICED_BUDGET);
    }

    MySqlPlannerModel(OptimizerSettings settings, MySqlCoefficients coefficients, TableStatistics statistics,
                      long pricedBudget) {
        this.pricedBudget = pricedBudget;
        this.settings = Objects.requireNonNull(settings, "settings");
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        this.statistics = Objects.requireNonNull(statistics, "statistics");
        this.space = new GreedySearchSpace(GreedySearchSpace.DEFAULT_BUDGET);
    }

    @Override
    public PlannerWork plan(QueryBlock statement) {
        List<JoinSearch> searches = new ArrayList<>();
        Deque<QueryBlock> blocks = new ArrayDeque<>();
        blocks.add(statement);
        int planned = 0;
        while (!blocks.isEmpty()) {
            BlockGraph block = new BlockGraph(blocks.removeFirst(), settings.switchOn("semijoin", true),
                    settings.switchOn("derived_merge", true));
            planned++;
            if (block.relations().size() >= 2) {
                searches.add(search(block));
            }
            blocks.addAll(block.separatelyPlanned());
        }
        return new PlannerWork(searches, planned, 0);
    }

    /**
     * The greedy search of one block's tables under the session's depth and prune level: replayed on the tables'
     * statistics where every one is known, else counted from the join graph.
     */
    private JoinSearch.Greedy search(BlockGraph block) {
        JoinGraph graph = block.graph();
        int depth = settings.depthFor(graph.size());
        Optional<PricedTables> priced = PricedTables.of(block, statistics);
        double cubes = equalityClassCubes(block);
        if (priced.isEmpty()) {
            return counted(graph, depth, cubes);
        }
        CostBoundSearch.Count count = new CostBoundSearch(priced.get(), settings.pruneLevel(), pricedBudget)
                .count(depth);
        return new JoinSearch.Greedy(graph, depth, settings.pruneLevel(), count.evaluations(), count.exact(),
                count.evaluations() * coefficients.secondsPerPricedExtension()
                        + count.keyLookups() * coefficients.secondsPerKeyLookup()
                        + graph.size() * coefficients.secondsPerSearchedTable(), cubes);
    }

    /** The search counted from the join graph alone, when the tables' statistics are not known. */
    private JoinSearch.Greedy counted(JoinGraph graph, int depth, double cubes) {
        if (settings.pruneLevel() == 0) {
            GreedySearchSpace.Count count = space.unpruned(graph, depth);
            return new JoinSearch.Greedy(graph, depth, 0, count.plans(), count.exact(),
                    count.plans() * coefficients.secondsPerPlan(), cubes);
        }
        double candidates = GreedySearchSpace.pruned(graph.size(), depth);
        return new JoinSearch.Greedy(graph, depth, settings.pruneLevel(), candidates, true,
                candidates * coefficients.secondsPerPrunedCandidate(), cubes);
    }

    /**
     * {@link JoinSearch.Greedy#equalityClassCubes()}: per class of columns the block's equalities make equal (a
     * multiple equality), its columns squared times the tables they belong to.
     */
    static double equalityClassCubes(BlockGraph block) {
        double cubes = 0;
        for (List<ColumnRef> equal : block.equalityClasses()) {
            long tables = equal.stream().map(ColumnRef::relation).distinct().count();
            cubes += (double) equal.size() * equal.size() * tables;
        }
        return cubes;
    }
}
