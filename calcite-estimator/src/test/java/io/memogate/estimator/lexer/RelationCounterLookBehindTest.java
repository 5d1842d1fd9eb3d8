package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The relation counter skips its rules for tokens that count nothing (names, constants, operators) and only
 * moves its two-word look-behind over them. The rules that read the look-behind must still see what the
 * tokens before them were: a dot, ROWS, IS [NOT] DISTINCT, EXTRACT. Values as the counter gave them before
 * the skip was added.
 */
class RelationCounterLookBehindTest {

    @ParameterizedTest
    @CsvSource(delimiter = '#', textBlock = """
            select rows from t, u                                                       # 2 # 0
            select rows + 1 from t, u                                                   # 2 # 0
            select * from rows from (f(1), g(2)) as x, t                                # 2 # 2
            select * from a where a.x is distinct from 1 and b in (select 1 from c, d)  # 3 # 1
            select * from a where a.x is not distinct from b.y                          # 1 # 0
            select t.from, s.join from t, s                                             # 2 # 0
            select extract(year from d) from t, u                                       # 2 # 1
            update t set a = 1 from u, v where t.id = u.id                              # 3 # 0
            select 1 + 2 from a, b, c                                                   # 3 # 0
            """)
    void rulesThatLookBackSeeThroughTokensThatCountNothing(String sql, int relations, int depth) {
        assertThat(PostgresLexing.bound(sql)).isEqualTo(new RelationBound(relations, depth));
        assertThat(PostgresLexing.analyzer().analyze(sql).statements().get(0).relationBound())
                .isEqualTo(new RelationBound(relations, depth));
    }
}
