package io.memogate.estimator.mysql;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.data.Percentage.withPercentage;

import io.memogate.estimator.Catalog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A table joined by a key with as many distinct values as rows adds one row, as a whole unique key does, and
 * MariaDB cuts the search under it the same way ({@code pruned_by_hanging_leaf}). The counts below are the
 * optimizer trace's {@code best_access_path} entries, read on a private MariaDB 10.11.19 over the random
 * corpus's tables (seed 3), for its 20-table clique searched 3, 4 and 5 tables deep without pruning; a cut on
 * unique keys alone counted 8,176, 43,544 and 219,160.
 */
class HangingLeafTest {

    private static final Catalog CATALOG = Catalog.of(RandomCorpusTables.seed3());
    private static final int[] CLIQUE = {13, 23, 15, 17, 19, 6, 7, 5, 14, 8, 12, 24, 16, 20, 22, 11, 4, 3, 1, 21};

    private static String clique() {
        List<String> conditions = new ArrayList<>();
        for (int i = 0; i < CLIQUE.length; i++) {
            for (int j = i + 1; j < CLIQUE.length; j++) {
                conditions.add("t" + CLIQUE[i] + ".a = t" + CLIQUE[j] + ".a");
            }
        }
        List<String> tables = new ArrayList<>();
        for (int t : CLIQUE) {
            tables.add("t" + t);
        }
        return "SELECT count(*) FROM " + String.join(", ", tables) + " WHERE " + String.join(" AND ", conditions);
    }

    private static double priced(int depth) {
        return SampledSearchTest.priced(MySqlPlannerModel.PRICED_BUDGET, clique(), 0, depth, CATALOG);
    }

    @Test
    void aCliqueOverOneRowKeysIsCountedAsTheTraceCountsIt() {
        // replayed: 1,720, 5,763 and 26,431
        assertThat(priced(3)).isCloseTo(1_680, withPercentage(5));
        assertThat(priced(4)).isCloseTo(5_587, withPercentage(5));
        assertThat(priced(5)).isCloseTo(25_551, withPercentage(5));
    }
}
