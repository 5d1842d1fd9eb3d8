package io.memogate.bench.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.planner.MemoryTerms;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObservationsCsvTest {

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void everyTermOfTheModelHasAColumnUnderItsName() {
        List<String> columns = Arrays.asList(ObservationsCsv.HEADER.split(","));

        for (String term : MemoryTerms.NAMES) {
            if (term.equals("statements") || term.equals("relationSquares") || term.equals("equalityClassCubes")) {
                continue; // one per row; and MySQL's greedy search's terms, which PostgreSQL's model never has
            }
            String column = term.equals("relations") ? "relations_in_searches" : term.equals("blocks")
                    ? "blocks_planned" : term.replaceAll("([A-Z])", "_$1").toLowerCase(java.util.Locale.ROOT);
            assertThat(columns).as(term).contains(column);
        }
    }

    @Test
    void aRowHoldsAsManyFieldsAsTheHeaderAndKeepsAPullUpsFractionOfACopiedRelation() {
        String sql = "SELECT count(*) FROM s0 t0 JOIN s1 t1 ON t0.k1 = t1.id JOIN s2 t2 ON t1.k2 = t2.id"
                + " WHERE t2.id IN (SELECT t3.k0 FROM s3 t3) UNION ALL SELECT count(*) FROM s4";
        CompileEstimate estimate = estimator.estimate(sql, PlannerSettings.DEFAULTS);

        String[] fields = ObservationsCsv.row(new Planned("random", "r000", "default", estimate, 1_048_576, Planned.OK))
                .split(",");
        List<String> columns = Arrays.asList(ObservationsCsv.HEADER.split(","));

        assertThat(fields).hasSameSizeAs(columns);
        String copied = fields[columns.indexOf("copied_join_relations")];
        assertThat(Double.parseDouble(copied)).isEqualTo(estimate.terms().copiedJoinRelations(),
                org.assertj.core.data.Offset.offset(0.005));
        assertThat(fields[columns.indexOf("set_operation_branches")]).isEqualTo("2");
    }
}
