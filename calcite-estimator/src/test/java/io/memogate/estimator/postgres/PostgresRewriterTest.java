package io.memogate.estimator.postgres;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rewritten text Calcite sees: same FROM items, same conjuncts, only syntax Babel reads. */
class PostgresRewriterTest {

    private final PostgresRewriter rewriter = new PostgresRewriter();

    private String text(String sql) {
        return rewriter.rewrite(sql).text().replaceAll("\\s+", " ").strip();
    }

    @Test
    void updateAndDeleteBecomeTheSelectPostgresPlans() {
        assertThat(text("UPDATE ONLY a AS t SET y = 1 FROM b WHERE t.x = b.x RETURNING t.id"))
                .isEqualTo("SELECT 1 FROM a AS t, b WHERE t.x = b.x");
        assertThat(text("DELETE FROM a t USING b, c WHERE t.x = b.x AND b.y = c.y"))
                .isEqualTo("SELECT 1 FROM a t, b, c WHERE t.x = b.x AND b.y = c.y");
        assertThat(text("INSERT INTO t (x) SELECT a.x FROM a ON CONFLICT (x) DO NOTHING RETURNING *"))
                .isEqualTo("SELECT a.x FROM a");
        assertThat(text("MERGE INTO t USING s ON t.id = s.id WHEN MATCHED THEN DELETE"))
                .isEqualTo("SELECT 1 FROM t JOIN s ON t.id = s.id");
    }

    @Test
    void operatorsKeepTheirOperands() {
        assertThat(text("SELECT 1 FROM a, b WHERE a.j->>'k' = b.y AND a.t @> b.t"))
                .isEqualTo("SELECT 1 FROM a, b WHERE a.j || 'k' = b.y AND a.t <> b.t");
    }

    @Test
    void materializedCtesAreRemembered() {
        PostgresRewriter.Rewrite r = rewriter.rewrite(
                "WITH w (x) AS MATERIALIZED (SELECT 1), \"V\" AS NOT MATERIALIZED (SELECT 2) SELECT 1");
        assertThat(r.materialized()).containsExactly("w");
        assertThat(r.notMaterialized()).containsExactly("V");
        assertThat(r.text().replaceAll("\\s+", " ")).isEqualTo("WITH w (x) AS (SELECT 1), \"V\" AS (SELECT 2) SELECT 1");
    }

    @Test
    void plainQueriesAreUntouched() {
        String sql = "SELECT a.x::text FROM a JOIN b ON a.x = b.x WHERE a.y = $1 AND b.z = ?";
        assertThat(rewriter.rewrite(sql).text()).isEqualTo(sql);
        assertThat(rewriter.rewrite(sql).notes()).isEmpty();
    }
}
