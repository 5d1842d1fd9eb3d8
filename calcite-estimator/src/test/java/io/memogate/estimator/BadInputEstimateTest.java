package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.postgres.PlannerSettings;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Input a proxy meets from broken or hostile clients: each gives a defined estimate quickly, never an
 * exception. The timeouts are generous (shared CI machines); what they catch is a hang.
 */
class BadInputEstimateTest {

    private final CompileEstimator estimator = new CompileEstimator();

    private CompileEstimate estimate(String sql) {
        return org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(30),
                () -> estimator.estimate(sql, PlannerSettings.DEFAULTS));
    }

    @Test
    void emptyAndCommentOnlyTextsBypass() {
        for (String sql : new String[] {"", "   ", ";;", "-- nothing\n", "/* a /* nested */ comment */", null}) {
            CompileEstimate e = estimate(sql);
            assertThat(e.bypass()).as(String.valueOf(sql)).isTrue();
            assertThat(estimator.estimateAll(sql, PlannerSettings.DEFAULTS)).isEmpty();
        }
    }

    @Test
    void unterminatedQuotesAndCommentsGiveAnEstimate() {
        for (String sql : new String[] {"SELECT * FROM a, b WHERE a.x = 'oops", "SELECT * FROM a, b /* open",
                "SELECT * FROM \"a, b", "SELECT $$ FROM a, b"}) {
            assertThat(estimate(sql).reason()).as(sql).isNotBlank();
        }
    }

    @Test
    void binaryGarbageGivesAnEstimate() {
        Random random = new Random(42);
        for (int i = 0; i < 50; i++) {
            char[] chars = new char[random.nextInt(2000)];
            for (int k = 0; k < chars.length; k++) {
                chars[k] = (char) random.nextInt(0x10000);
            }
            assertThat(estimate(new String(chars)).reason()).isNotBlank();
        }
        assertThat(estimate("SELECT \u0000 FROM a, b\u0001\uffff WHERE").reason()).isNotBlank();
    }

    @Test
    void thousandNestedSubQueriesFallBackLexically() {
        StringBuilder sql = new StringBuilder();
        for (int i = 0; i < 1000; i++) {
            sql.append("SELECT * FROM a").append(i).append(", (");
        }
        sql.append("SELECT 1");
        for (int i = 0; i < 1000; i++) {
            sql.append(") s").append(i);
        }
        CompileEstimate e = estimate(sql.toString());
        assertThat(e.parser()).isEqualTo(Parser.LEXICAL);
        assertThat(e.reason()).contains("nesting depth");
        assertThat(e.blocks()).isGreaterThan(100);
    }

    @Test
    void tenMegabyteStatementIsEstimatedBySize() {
        StringBuilder sql = new StringBuilder("SELECT * FROM a, b WHERE a.x = b.x AND a.y IN (");
        while (sql.length() < 10 << 20) {
            sql.append("123456789, ");
        }
        sql.append("0)");
        CompileEstimate e = estimate(sql.toString());
        assertThat(e.parser()).isEqualTo(Parser.LEXICAL);
        assertThat(e.reason()).contains("estimated by size");
        assertThat(e.fingerprint()).contains("oversized");
    }

    @Test
    void severalStatementsGiveOneEstimateEachAndTheLargestOverall() {
        String text = "BEGIN; SELECT * FROM a, b WHERE a.x = b.x; " + Shapes.chain(5) + "; COMMIT";
        List<CompileEstimate> all = estimator.estimateAll(text, PlannerSettings.DEFAULTS);
        assertThat(all).extracting(CompileEstimate::memoPairs).containsExactly(0L, 1L, 20L, 0L);
        CompileEstimate largest = estimator.estimate(text, PlannerSettings.DEFAULTS);
        assertThat(largest.memoPairs()).isEqualTo(20);
        assertThat(largest.statements()).isEqualTo(4);
        assertThat(largest.reason()).startsWith("largest of 4 statements");
    }

    @Test
    void cachedAnswersDoNotDependOnConstantsButOnSettings() {
        CompileEstimate first = estimator.estimate(Shapes.chain(12) + " AND t0.v = 1", PlannerSettings.DEFAULTS);
        CompileEstimate second = estimator.estimate(Shapes.chain(12) + " AND t0.v = 2", PlannerSettings.DEFAULTS);
        assertThat(second).isEqualTo(first);
        CompileEstimate wide = estimator.estimate(Shapes.chain(12) + " AND t0.v = 2",
                PlannerSettings.DEFAULTS.with("geqo_threshold", "20"));
        assertThat(wide.memoPairs()).isEqualTo(Shapes.chainPairs(12));
    }
}
