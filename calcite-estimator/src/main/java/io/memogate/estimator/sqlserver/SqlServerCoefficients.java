package io.memogate.estimator.sqlserver;

import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.planner.TermCoefficients;

/**
 * What SQL Server's optimizer spends to compile a statement, per unit of the {@link MemoryTerms}, and the task
 * budget that ends its search ({@link SqlServerPlannerModel}). The defaults are not measured here (no SQL Server
 * runs on the machines this was built on): they are set so that the model gives the compile memory of published SQL
 * Server 2019 showplans of Join Order Benchmark queries, 1.6-2.0 MB for queries of 5 tables and 4.0-4.7 MB for 7
 * and 8 tables, every one ended by TimeOut: a fixed 250 kB, 150 kB per table, 25 kB per join alternative explored
 * and a budget of 112 alternatives, which a 5-table JOB query's graph (about 30 pairs) stays under and a 7-table
 * one reaches (TsqlEstimateTest holds the model to those ranges). A statement of one table and a hundred tokens
 * then costs about 280 kB, under the bypass. Lists of constants, views' blocks and the batch's other statements
 * weigh per element. A server's own figures replace them: {@code memogate calibrate} fitted on showplans'
 * {@code CompileMemory}, or Query Store's {@code avg_compile_memory_kb}.
 *
 * @param fixedBytes memory of compiling any statement: the parse tree, the algebrizer's, the first stages
 * @param bytesPerRelation memory per table of a join search: its group, statistics, access paths
 * @param bytesPerExploredPair memory per join alternative explored: group expressions, their physical plans
 * @param exploredPairBudget join alternatives a statement's search explores before its task budget ends it
 * @param bytesPerToken memory per token of the statement's text
 * @param bytesPerListElement memory per constant of an IN list or VALUES row (IN lists are OR chains to
 *     SQL Server's optimizer, each element a scalar operator with its own selectivity)
 * @param bytesPerBlock memory per query block compiled apart from the main join (sub-queries kept as such,
 *     set operations' branches)
 * @param bytesPerOtherStatement memory per other statement of the batch, compiled with it
 */
public record SqlServerCoefficients(double fixedBytes, double bytesPerRelation, double bytesPerExploredPair,
                                    double exploredPairBudget, double bytesPerToken, double bytesPerListElement,
                                    double bytesPerBlock, double bytesPerOtherStatement) implements TermCoefficients {

    public static final SqlServerCoefficients DEFAULTS = new SqlServerCoefficients(250_000, 150_000, 25_000, 112,
            300, 1_000, 50_000, 64_000);

    public SqlServerCoefficients {
        double[] all = {fixedBytes, bytesPerRelation, bytesPerExploredPair, bytesPerToken, bytesPerListElement,
                bytesPerBlock, bytesPerOtherStatement};
        for (double value : all) {
            if (!(value >= 0) || Double.isInfinite(value)) {
                throw new IllegalArgumentException("SQL Server coefficients must be finite and >= 0, were " + this);
            }
        }
        if (!(exploredPairBudget >= 1) || Double.isInfinite(exploredPairBudget)) {
            throw new IllegalArgumentException("exploredPairBudget must be finite and >= 1, was " + exploredPairBudget);
        }
    }

    /** In the order of {@link MemoryTerms#NAMES}; PostgreSQL's and MySQL's other terms cost nothing here. */
    @Override
    public double[] toArray() {
        double[] weights = new double[MemoryTerms.NAMES.size()];
        weights[MemoryTerms.NAMES.indexOf("statements")] = fixedBytes;
        weights[MemoryTerms.NAMES.indexOf("joinPairs")] = bytesPerExploredPair;
        weights[MemoryTerms.NAMES.indexOf("relations")] = bytesPerRelation;
        weights[MemoryTerms.NAMES.indexOf("tokens")] = bytesPerToken;
        weights[MemoryTerms.NAMES.indexOf("listElements")] = bytesPerListElement;
        weights[MemoryTerms.NAMES.indexOf("valueCells")] = bytesPerListElement;
        weights[MemoryTerms.NAMES.indexOf("blocks")] = bytesPerBlock;
        weights[MemoryTerms.NAMES.indexOf("setOperationBranches")] = bytesPerBlock;
        weights[MemoryTerms.NAMES.indexOf("otherStatements")] = bytesPerOtherStatement;
        return weights;
    }
}
