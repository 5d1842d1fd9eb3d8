package io.memogate.proxy.tds.session;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** T-SQL as the PostgreSQL reading understands it, with strings, quoted names and comments untouched. */
class TsqlForEstimateTest {

    @Test
    void bracketsBecomeQuotedNamesAndUnicodeLiteralsPlainOnes() {
        assertThat(TsqlForEstimate.rewrite("SELECT [a]]b], [x\"y] FROM [dbo].[t] WHERE n = N'it''s' AND m = 'N'"))
                .isEqualTo("SELECT \"a]b\", \"x\"\"y\" FROM \"dbo\".\"t\" WHERE n = 'it''s' AND m = 'N'");
    }

    @Test
    void topAfterSelectIsDroppedInEachForm() {
        assertThat(TsqlForEstimate.rewrite("SELECT TOP 5 a FROM t")).isEqualToNormalizingWhitespace("SELECT a FROM t");
        assertThat(TsqlForEstimate.rewrite("SELECT DISTINCT TOP (@n + 1) PERCENT WITH TIES a FROM t"))
                .isEqualToNormalizingWhitespace("SELECT DISTINCT a FROM t");
        assertThat(TsqlForEstimate.rewrite("SELECT top_n, [top] FROM t")).isEqualTo("SELECT top_n, \"top\" FROM t");
        assertThat(TsqlForEstimate.rewrite("SELECT top FROM t")).as("no count: not a TOP clause")
                .isEqualTo("SELECT top FROM t");
    }

    @Test
    void commentsAndStringsAreCopiedAsTheyAre() {
        String text = "SELECT 1 -- [not] TOP 3 N'x'\n/* [kept] */ FROM t WHERE s = '[kept]'";
        assertThat(TsqlForEstimate.rewrite(text)).isEqualTo(text);
    }
}
