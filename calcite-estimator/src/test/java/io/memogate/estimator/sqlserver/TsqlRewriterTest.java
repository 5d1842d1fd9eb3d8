package io.memogate.estimator.sqlserver;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** What the rewriter hands Calcite, and that Calcite reads it. */
class TsqlRewriterTest {

    private static final SqlServerDialect DIALECT = new SqlServerDialect();

    private static String rewritten(String tsql) {
        String text = DIALECT.rewriter().rewrite(tsql).text();
        assertThat(DIALECT.parses(text)).as("Calcite reads %s", text).isTrue();
        return text;
    }

    @Test
    void namesStringsAndParameters() {
        assertThat(rewritten("SELECT [a]]b], [x\"y] FROM [dbo].[t] JOIN #tmp ON #tmp.id = [t].id WHERE n = N'it''s' AND m = @P0"))
                .isEqualTo("SELECT \"a]b\" , \"x\"\"y\" FROM \"dbo\" . \"t\" JOIN \"#tmp\" ON \"#tmp\" . id = \"t\" . id"
                        + " WHERE n = 'it''s' AND m = ?");
    }

    @Test
    void rowLimitsHintsAndOptionsGo() {
        assertThat(rewritten("SELECT DISTINCT TOP (@n + 1) PERCENT WITH TIES a FROM t WITH (NOLOCK, INDEX(ix)) "
                + "INNER HASH JOIN u (NOLOCK) ON u.id = t.id ORDER BY a OPTION (RECOMPILE, MAXDOP 1)"))
                .isEqualTo("SELECT DISTINCT a FROM t INNER JOIN u ON u . id = t . id ORDER BY a");
        assertThat(rewritten("SELECT top_n, [top] FROM t")).isEqualTo("SELECT top_n , \"top\" FROM t");
    }

    @Test
    void conversionsAndTypes() {
        assertThat(rewritten("SELECT CONVERT(nvarchar(max), d, 120), TRY_CONVERT(datetime2, s), TRY_CAST(b AS bit), "
                + "COUNT_BIG(*) FROM t"))
                .isEqualTo("SELECT CAST ( d AS VARCHAR ) , CAST ( s AS TIMESTAMP ) , CAST ( b AS BOOLEAN ) , COUNT ( * ) FROM t");
    }

    @Test
    void dataChangesAreTheQueryOfTheirTables() {
        assertThat(rewritten("UPDATE TOP (10) o SET o.x = 1 OUTPUT inserted.x FROM o JOIN p ON p.id = o.id WHERE p.y = 2"))
                .isEqualTo("SELECT 1 FROM o JOIN p ON p . id = o . id WHERE p . y = 2");
        assertThat(rewritten("DELETE o FROM o JOIN p ON p.id = o.id")).isEqualTo("SELECT 1 FROM o JOIN p ON p . id = o . id");
        assertThat(rewritten("DELETE FROM o WHERE id = 1")).isEqualTo("SELECT 1 FROM o WHERE id = 1");
        assertThat(rewritten("SELECT a, b INTO #t FROM o JOIN p ON p.id = o.id"))
                .isEqualTo("SELECT a , b FROM o JOIN p ON p . id = o . id");
        assertThat(rewritten("MERGE INTO s AS t USING u ON t.id = u.id WHEN MATCHED THEN DELETE;"))
                .startsWith("SELECT 1 FROM s AS t JOIN u ON t . id = u . id");
    }
}
