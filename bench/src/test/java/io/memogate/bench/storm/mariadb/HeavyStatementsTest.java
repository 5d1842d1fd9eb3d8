package io.memogate.bench.storm.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.bench.storm.mariadb.HeavyStatements.Kind;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class HeavyStatementsTest {

    private final HeavyStatements statements = new HeavyStatements(1_000, 20);

    @Test
    void aReportJoinsTheHubAndNineOrTenDistinctArmsWithPruningOffAndABound() {
        SplittableRandom random = new SplittableRandom(7);
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < 50; i++) {
            String sql = statements.next(Kind.REPORT, random);
            assertThat(sql).startsWith("SET STATEMENT optimizer_prune_level = 0, max_statement_time = 20 FOR SELECT");
            long arms = Pattern.compile("JOIN lab_arm(\\d+) ").matcher(sql).results().count();
            assertThat(arms).isBetween(9L, 10L);
            assertThat(Pattern.compile("JOIN lab_arm(\\d+) ").matcher(sql).results().map(m -> m.group(1)).distinct()
                    .count()).isEqualTo(arms);
            seen.add(sql);
        }
        assertThat(seen).as("ad hoc: the arms differ from one report to the next").hasSizeGreaterThan(40);
    }

    @Test
    void anInListHasTheValuesAskedForUnderTheBound() {
        String sql = statements.next(Kind.IN_LIST, new SplittableRandom(1));
        assertThat(sql).startsWith("SET STATEMENT max_statement_time = 20 FOR SELECT count(*) FROM sales WHERE customer_id IN (");
        String list = sql.substring(sql.indexOf("IN (") + 4, sql.length() - 1);
        assertThat(list.split(",")).hasSize(1_000).allMatch(v -> v.matches("\\d+"));
    }
}
