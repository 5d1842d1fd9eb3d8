package io.memogate.estimator.mysql;

import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.planner.BlockGraph;
import io.memogate.estimator.planner.JoinSearch;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Objects;

/**
 * The join searches MySQL's and MariaDB's optimizer runs for a statement, and how long each takes: one greedy
 * search per SELECT block over all its tables ({@link BlockGraph}), then one per block planned on its own
 * (derived tables not merged, sub-queries that stay sub-queries, UNION branches). A block of one table has no
 * search. The time of a search is its partial orders ({@link GreedySearchSpace}) times the cost of evaluating
 * one, which differs by an order of magnitude between a search that prunes and one that does not (each
 * pruned step evaluates every table's access paths to choose the one to keep).
 */
public final class MySqlPlannerModel implements PlannerModel {

    private final OptimizerSettings settings;
    private final MySqlCoefficients coefficients;
    private final GreedySearchSpace space;

    public MySqlPlannerModel(OptimizerSettings settings, MySqlCoefficients coefficients) {
        this(settings, coefficients, new GreedySearchSpace(GreedySearchSpace.DEFAULT_BUDGET));
    }

    MySqlPlannerModel(OptimizerSettings settings, MySqlCoefficients coefficients, GreedySearchSpace space) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
        this.space = Objects.requireNonNull(space, "space");
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
                searches.add(search(block.graph()));
            }
            blocks.addAll(block.separatelyPlanned());
        }
        return new PlannerWork(searches, planned, 0);
    }

    /** The greedy search of one block's tables under the session's depth and prune level. */
    JoinSearch.Greedy search(JoinGraph graph) {
        int depth = settings.depthFor(graph.size());
        if (settings.pruneLevel() == 0) {
            GreedySearchSpace.Count count = space.unpruned(graph, depth);
            return new JoinSearch.Greedy(graph, depth, 0, count.plans(), count.exact(),
                    count.plans() * coefficients.secondsPerPlan());
        }
        double candidates = GreedySearchSpace.pruned(graph.size(), depth);
        return new JoinSearch.Greedy(graph, depth, settings.pruneLevel(), candidates, true,
                candidates * coefficients.secondsPerPrunedCandidate());
    }
}
