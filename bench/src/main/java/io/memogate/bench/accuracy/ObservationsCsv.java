package io.memogate.bench.accuracy;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.planner.MemoryTerms;
import java.io.IOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;

/** observations.csv: one row per statement and profile, with every term of the model, for re-fitting elsewhere. */
final class ObservationsCsv {

    static final String HEADER = "corpus,id,profile,outcome,measured_bytes,estimated_bytes,ratio,parser,relations,"
            + "largest_problem,search,memo_pairs,join_pairs,fast_start_join_pairs,relations_in_searches,geqo_genes,"
            + "extra_join_clauses,cartesian_pairs,blocks_planned,tokens,parameterizations,fast_start_parameterizations,"
            + "fast_start_sub_problem_pairs,crossing_squares,set_operation_branches,list_elements,value_rows,value_cells,"
            + "other_statements,partitions,partitionwise_pairs,copied_join_relations,partitionwise_groupings,join_relations";

    private ObservationsCsv() {
    }

    static void write(Path file, List<Planned> observations) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            out.write(HEADER);
            out.write('\n');
            for (Planned o : observations) {
                out.write(row(o));
                out.write('\n');
            }
        }
    }

    static String row(Planned o) {
        CompileEstimate e = o.estimate();
        MemoryTerms t = e.terms();
        return String.join(",", o.corpus(), o.id(), o.profile(), quote(o.outcome()), Long.toString(o.measuredBytes()),
                Long.toString(e.estimatedBytes()), o.measured() ? String.format(Locale.ROOT, "%.3f", o.ratio()) : "",
                e.parser().name().toLowerCase(Locale.ROOT), Integer.toString(e.relations()),
                Integer.toString(e.largestProblem()), e.search().name(), Long.toString(e.memoPairs()),
                number(t.joinPairs()), number(t.fastStartJoinPairs()), number(t.relations()), number(t.geqoGenes()),
                number(t.extraJoinClauses()), number(t.cartesianPairs()), number(t.blocks()), number(t.tokens()),
                number(t.parameterizations()), number(t.fastStartParameterizations()),
                number(t.fastStartSubProblemPairs()), number(t.crossingSquares()), number(t.setOperationBranches()),
                number(t.listElements()), number(t.valueRows()), number(t.valueCells()), number(t.otherStatements()),
                number(t.partitions()), number(t.partitionwisePairs()), decimal(t.copiedJoinRelations()),
                number(t.partitionwiseGroupings()), number(t.joinRelations()));
    }

    private static String number(double value) {
        return String.format(Locale.ROOT, "%.0f", value);
    }

    /** Terms weighed by fractions (a pull-up's copied relations) keep two decimals, so that a re-fit sees them. */
    private static String decimal(double value) {
        return String.format(Locale.ROOT, "%.2f", value);
    }

    private static String quote(String text) {
        return '"' + text.replace("\"", "\"\"") + '"';
    }
}
