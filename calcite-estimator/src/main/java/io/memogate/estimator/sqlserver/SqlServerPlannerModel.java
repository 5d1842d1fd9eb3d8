package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.graph.CsgCmpCounter;
import io.memogate.estimator.graph.JoinGraph;
import io.memogate.estimator.graph.MemoSize;
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
 * The join searches SQL Server's optimizer runs for a statement, and how much of them its task budget lets it
 * explore. The optimizer puts the whole statement in one memo: derived tables are merged and IN and EXISTS
 * sub-queries become semi-joins (apply removal), so each SELECT block is one search over all its tables
 * ({@link BlockGraph}, both merges on); set operations' branches and sub-queries it keeps are searches of their
 * own in the same memo. It explores in stages (transaction processing, quick plan, full optimization) until
 * its task budget runs out (TimeOut) or a plan is good enough; the model gives each search the join pairs an
 * exhaustive search of its graph builds (csg-cmp pairs) and shares the statement's budget
 * ({@link SqlServerCoefficients#exploredPairBudget()}) between them by their size, so a statement's memory grows
 * with its joins and then saturates: beyond the budget only its tables and tokens add. A block of one table has
 * no search (a trivial plan).
 */
public final class SqlServerPlannerModel implements PlannerModel {

    /** Enumeration steps per count: far more than a budget of a few hundred pairs needs, then extrapolated. */
    private static final long COUNT_STEPS = 20_000;

    private final SqlServerCoefficients coefficients;
    private final CsgCmpCounter counter = new CsgCmpCounter(COUNT_STEPS);

    public SqlServerPlannerModel(SqlServerCoefficients coefficients) {
        this.coefficients = Objects.requireNonNull(coefficients, "coefficients");
    }

    @Override
    public PlannerWork plan(QueryBlock statement) {
        List<JoinGraph> graphs = new ArrayList<>();
        Deque<QueryBlock> blocks = new ArrayDeque<>();
        blocks.add(statement);
        int planned = 0;
        while (!blocks.isEmpty()) {
            BlockGraph block = new BlockGraph(blocks.removeFirst(), true, true);
            planned++;
            if (block.relations().size() >= 2) {
                graphs.add(block.graph());
            }
            blocks.addAll(block.separatelyPlanned());
        }
        return new PlannerWork(searches(graphs), planned, 0);
    }

    /** One search per graph, the statement's budget shared in proportion to what each would explore. */
    private List<JoinSearch> searches(List<JoinGraph> graphs) {
        List<MemoSize> memos = graphs.stream().map(counter::count).toList();
        double total = memos.stream().mapToDouble(MemoSize::pairs).sum();
        double share = total > coefficients.exploredPairBudget() ? coefficients.exploredPairBudget() / total : 1;
        List<JoinSearch> searches = new ArrayList<>(graphs.size());
        for (int i = 0; i < graphs.size(); i++) {
            MemoSize memo = memos.get(i);
            searches.add(new JoinSearch.Cascades(graphs.get(i), memo.pairs(), memo.pairs() * share, memo.exact()));
        }
        return searches;
    }
}
