package io.memogate.estimator.planner;

import static io.memogate.estimator.planner.Blocks.block;
import static io.memogate.estimator.planner.Blocks.from;
import static io.memogate.estimator.planner.Blocks.link;
import static io.memogate.estimator.planner.Blocks.rels;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.estimator.PlannerMemoryMeasurements;
import io.memogate.estimator.PlannerMemoryMeasurements.Row;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class MemoryModelTest {

    /** The settings the data file was measured with. */
    private static final PlannerSettings MEASURED = PlannerSettings.DEFAULTS.with("geqo", "off")
            .with("join_collapse_limit", "30").with("from_collapse_limit", "30");

    private final PostgresPlannerModel planner = new PostgresPlannerModel(MEASURED);
    private final MemoryModel model = new MemoryModel();

    /** What users notice: a statement that needs megabytes or more is estimated within a factor of 2. */
    @Test
    void reproducesEveryMeasuredStatementAbove1000KiloBytesWithinAFactorOf2() {
        int checked = 0;
        for (Row row : PlannerMemoryMeasurements.rows()) {
            long usedBytes = row.plannerUsedKb() * 1024;
            if (row.plannerUsedKb() <= 1000) {
                continue;
            }
            long estimate = model.bytes(planner.plan(statement(row.shape(), row.n())));
            assertThat((double) estimate / usedBytes).as("%s of %d tables", row.shape(), row.n()).isBetween(0.5, 2.0);
            checked++;
        }
        assertThat(checked).isEqualTo(15);
    }

    /** The model's form fits empty tables closely; the defaults are for tables with data, which cost more. */
    @Test
    void theEmptyTableFitIsCloserThanThatOnEveryRow() {
        MemoryModel emptyTables = new MemoryModel(MemoryCoefficients.EMPTY_TABLES_PG17);
        for (Row row : PlannerMemoryMeasurements.rows()) {
            long usedBytes = row.plannerUsedKb() * 1024;
            long estimate = emptyTables.bytes(planner.plan(statement(row.shape(), row.n())));
            assertThat((double) estimate / usedBytes).as("%s of %d tables", row.shape(), row.n()).isBetween(0.8, 1.1);
        }
    }

    @Test
    void aStatementWithoutJoinsCostsTheFloor() {
        assertThat(model.bytes(PlannerWork.NONE)).isEqualTo(20 * 1024);
    }

    @Test
    void geqoNeedsLittleMemoryWhateverTheJoinGraph() {
        PlannerWork clique = new PostgresPlannerModel(PlannerSettings.DEFAULTS).plan(statement("clique", 14));
        assertThat(clique.searches()).singleElement().isInstanceOf(JoinSearch.Geqo.class);
        // 2 x 13 join relations at 3.2 kB, 14 relations at 20 kB, and 250 chromosomes of 14 genes at 16 bytes
        assertThat(model.bytes(clique))
                .isEqualTo((long) Math.ceil(20 * 1024 + 26 * 3.2 * 1024 + 14 * 20 * 1024 + 250 * 14 * 16));
    }

    @Test
    void moreMemoryThanAnyServerHasSaturates() {
        // 40 relations joined on one key: one equivalence class, a 40-clique of 6·10^18 pairs
        List<Predicate> sameKey = new ArrayList<>();
        for (int i = 1; i < 40; i++) {
            sameKey.add(Blocks.eq("t0.k", "t" + i + ".k"));
        }
        PlannerWork work = new PostgresPlannerModel(MEASURED.with("join_collapse_limit", "100")
                .with("from_collapse_limit", "100")).plan(block(from(rels("t", 40)), sameKey));
        assertThat(model.bytes(work)).isEqualTo(Long.MAX_VALUE);
        assertThat(model.bytes(work.searches().get(0))).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void coefficientsCanBeReplaced() {
        MemoryModel calibrated = new MemoryModel(new MemoryCoefficients(100_000, 3000, 30_000, 10_000, 0));
        PlannerWork chain = planner.plan(statement("chain", 4));
        assertThat(calibrated.bytes(chain)).isEqualTo(100_000 + 10 * 3000 + 4 * 10_000);
        assertThatThrownBy(() -> new MemoryCoefficients(-1, 0, 0, 0, 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("fixedBytes must be finite and >= 0, was -1.0");
    }

    /** The data file's statement for a shape: one clause per edge, on columns unique to the edge. */
    static QueryBlock statement(String shape, int n) {
        List<Predicate> predicates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                boolean edge = switch (shape) {
                    case "chain" -> j == i + 1;
                    case "cycle" -> j == i + 1 || (i == 0 && j == n - 1);
                    case "star" -> i == 0;
                    case "clique" -> true;
                    default -> throw new IllegalArgumentException(shape);
                };
                if (edge) {
                    predicates.add(link("t", i, j));
                }
            }
        }
        return block(from(rels("t", n)), predicates);
    }
}
