package io.memogate.estimator;

import static io.memogate.estimator.Fixture.sql;
import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * PostgreSQL syntax Babel reads, syntax the rewriter makes readable, wrappers whose planned query the
 * lexer locates, and what bypasses. Each statement joins a and b (1 pair) unless said otherwise, so a
 * wrong reading shows as a wrong count rather than passing silently.
 */
class SyntaxEstimateTest {

    @Test
    void parametersCastsIlikeArraysAndLateralParse() {
        sql("SELECT * FROM a, b WHERE a.id = $1 AND a.x = b.x AND b.y = ?").estimates(1);
        sql("SELECT a.x::text FROM a, b WHERE a.x = b.x AND a.n ILIKE 'x%'").estimates(1);
        sql("SELECT * FROM a, b WHERE a.x = ANY(ARRAY[1, 2]) AND a.x = b.x").estimates(1);
        // A simple LATERAL sub-select is pulled up: a joins b.
        sql("SELECT * FROM a, LATERAL (SELECT * FROM b WHERE b.x = a.x) l").estimates(1);
    }

    @Test
    void rewrittenSyntaxKeepsItsJoinsAndSaysSo() {
        assertThat(sql("SELECT DISTINCT ON (a.x) a.x FROM a, b WHERE a.x = b.x").estimates(1).reason())
                .contains("DISTINCT ON");
        assertThat(sql("SELECT a.j->>'k' FROM a, b, c WHERE a.j->>'k' = b.y AND b.z #> '{x}' = c.z")
                .estimates(4).reason()).contains("JSON");
        assertThat(sql("SELECT * FROM a, b WHERE a.tags @> b.tags").estimates(1).reason()).contains("<>");
        assertThat(sql("SELECT * FROM a, b WHERE a.x = b.x FOR UPDATE").estimates(1).reason()).contains("locking");
    }

    @Test
    void commonPostgresExpressionsAreRewrittenNotFallenBackOn() {
        String join = " FROM a, b WHERE a.x = b.x";
        sql("SELECT a.x" + join + " AND a.id = ANY($1::int[])").estimates(1);
        sql("SELECT a.x" + join + " AND a.t > now() - interval '1 day'").estimates(1);
        // As pg_get_viewdef prints intervals (a view's definition is parsed like a statement).
        assertThat(sql("SELECT a.x" + join + " AND (a.d <= ((b.d)::timestamp without time zone + '30 days'::interval))")
                .estimates(1).reason()).contains("::interval cast removed");
        sql("SELECT a.x" + join + " AND a.d < ('1995-09-01'::date + '1 mon'::interval month)").estimates(1);
        sql("SELECT a.x" + join + " AND a.d < ('1995-09-01'::date + '1-2'::interval year to month)").estimates(1);
        sql("SELECT a.x" + join + " AND a.t > (now() - '00:05:00'::interval(0))").estimates(1);
        sql("SELECT a.x" + join + " AND ((a.name)::text = (b.name COLLATE \"C\"))").estimates(1);
        sql("SELECT POSITION(('x'::text) IN (a.name)) AS p" + join).estimates(1);
        sql("SELECT POSITION((a.name COLLATE \"C\") IN (b.name)) AS p" + join).estimates(1);
        // LATERAL before a function means nothing more to PostgreSQL: the same problem as without it.
        long withoutLateral = sql("SELECT a.x FROM a, generate_series(1, a.id) g(i), b WHERE b.x = a.x AND g.i = b.y")
                .estimate().memoPairs();
        sql("SELECT a.x FROM a, LATERAL generate_series(1, a.id) g(i), b WHERE b.x = a.x AND g.i = b.y")
                .estimates(withoutLateral);
        sql("SELECT a.x" + join + " ORDER BY (a.name COLLATE pg_catalog.\"default\")").estimates(1);
        // NOT EXISTS (SELECT FROM ...), correlated: the anti join it is with a select list.
        long antiJoin = sql("SELECT a.x" + join + " AND NOT EXISTS (SELECT 1 FROM c WHERE c.x = a.x)").estimate()
                .memoPairs();
        sql("SELECT a.x" + join + " AND (NOT (EXISTS ( SELECT\n FROM c WHERE (c.x = a.x))))").estimates(antiJoin);
        // The standard form, as TPC-H writes it, is Calcite's own.
        assertThat(sql("SELECT a.x" + join + " AND a.d < DATE '1996-01-01' + INTERVAL '3' MONTH").estimates(1)
                .reason()).doesNotContain("INTERVAL");
        sql("SELECT a.x" + join + " AND a.d < DATE '1996-01-01' + INTERVAL '1' YEAR").estimates(1);
        sql("SELECT a.x" + join + " AND a.ts AT TIME ZONE 'UTC' > now()").estimates(1);
        sql("SELECT a.x" + join + " AND a.n LIKE ANY (ARRAY['x%', 'y%'])").estimates(1);
        sql("SELECT a.x INTO TEMP newt" + join).estimates(1);
        sql("SELECT * FROM a TABLESAMPLE SYSTEM (10), b WHERE a.x = b.x").estimates(1);
        // VALUES in FROM is one relation: a-b, a-v, a chain of 3.
        sql("SELECT * FROM a, b, (VALUES (1, 2)) v(p, q) WHERE a.x = b.x AND v.p = a.y").estimates(4);
    }

    @Test
    void jsonKeyExistsOperatorIsNotReadByBabel() {
        // The lexer takes this ? for a placeholder, as PostgreSQL's operator rules leave it ambiguous
        // to a client; Babel rejects it in that position, so the statement falls back, still 1 pair.
        assertThat(sql("SELECT a.x FROM a, b WHERE a.x = b.x AND a.j ? 'k'").fallsBack().memoPairs()).isEqualTo(1);
    }

    @Test
    void updateFromAndDeleteUsingPlanTheTargetAsAFromItem() {
        assertThat(sql("UPDATE a SET y = 1 FROM b, c WHERE a.x = b.x AND b.y = c.y RETURNING a.id").estimates(4)
                .reason()).contains("UPDATE");
        assertThat(sql("DELETE FROM a USING b, c WHERE a.x = b.x AND b.y = c.y").estimates(4).reason())
                .contains("DELETE");
        // A sub-select in SET is still planned, apart.
        assertThat(sql("UPDATE a SET y = (SELECT max(c.y) FROM c, d WHERE c.x = d.x) FROM b WHERE a.x = b.x")
                .estimates(2).blocks()).isEqualTo(2);
        sql("INSERT INTO t (x) SELECT a.x FROM a, b WHERE a.x = b.x ON CONFLICT DO NOTHING").estimates(1);
        // MERGE joins its target and source; t.id = s.id = a.id = b.id is one class: a triangle.
        assertThat(sql("MERGE INTO t USING (SELECT a.id, b.x FROM a, b WHERE a.id = b.id) s ON t.id = s.id"
                + " WHEN MATCHED THEN UPDATE SET x = s.x WHEN NOT MATCHED THEN INSERT VALUES (s.id, s.x)")
                .estimates(6).reason()).contains("MERGE");
    }

    @Test
    void wrappedQueriesAreEstimatedLikeTheQuery() {
        String q = "SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y";
        sql("EXPLAIN ANALYZE " + q).estimates(4);
        sql("EXPLAIN (ANALYZE, BUFFERS) " + q).estimates(4);
        sql("CREATE TABLE t AS " + q).estimates(4);
        sql("DECLARE cur CURSOR FOR " + q).estimates(4);
        sql("COPY (" + q + ") TO STDOUT").estimates(4);
    }

    @Test
    void trivialAndUtilityStatementsBypassWithAReason() {
        assertThat(sql("select 1").bypasses().reason()).contains("relation");
        sql("select * from t where id = $1").bypasses();
        assertThat(sql("begin").bypasses().reason()).contains("not planned");
        sql("set work_mem = '64MB'").bypasses();
        sql("CREATE INDEX i ON a (x)").bypasses();
        // PREPARE is planned at EXECUTE, not here.
        sql("PREPARE p AS SELECT * FROM a, b WHERE a.x = b.x").bypasses();
    }

    @Test
    void executeEstimatesTheRememberedPreparedText() {
        CompileEstimator estimator = new CompileEstimator();
        PreparedStatementTexts texts = name -> name.equals("p")
                ? java.util.Optional.of("PREPARE p (int) AS SELECT * FROM a, b, c WHERE a.x = b.x AND b.y = c.y"
                        + " AND a.id = $1")
                : java.util.Optional.empty();
        CompileEstimate e = estimator.estimate("EXECUTE p(42)", io.memogate.estimator.postgres.PlannerSettings.DEFAULTS,
                texts);
        assertThat(e.memoPairs()).isEqualTo(4);
        assertThat(e.reason()).startsWith("EXECUTE p");
        CompileEstimate unknown = estimator.estimate("EXECUTE q", io.memogate.estimator.postgres.PlannerSettings.DEFAULTS,
                texts);
        assertThat(unknown.bypass()).isTrue();
        assertThat(unknown.reason()).contains("unknown");
    }

    @Test
    void unparseableStatementsFallBackToAStarPerBlock() {
        // Babel cannot read a data-modifying CTE; the lexer sees FROM a, b, c: a star of 3 (4 pairs).
        CompileEstimate e = sql("WITH d AS (DELETE FROM x RETURNING *) SELECT * FROM a, b, c WHERE a.x = b.x")
                .fallsBack();
        assertThat(e.reason()).contains("Calcite could not read it").contains("star");
        assertThat(e.memoPairs()).isGreaterThanOrEqualTo(4);
        // JOINs count as items too: a star of 4 has 3 * 2^2 = 12 pairs.
        assertThat(sql("SELECT * FROM a JOIN b USING (x) JOIN c USING (y) JOIN d USING (z) WINDOW w AS ((("
                + "PARTITION BY").fallsBack().memoPairs()).isEqualTo(12);
    }
}
