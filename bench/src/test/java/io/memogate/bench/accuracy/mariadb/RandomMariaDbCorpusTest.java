package io.memogate.bench.accuracy.mariadb;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.proxy.calibrate.mysql.OptimizerCase;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** The corpus holds what the report's command line asks for, the same for the same seed. */
class RandomMariaDbCorpusTest {

    private static final Pattern FROM = Pattern.compile("FROM (.*?) WHERE");

    private static List<OptimizerCase> cases(long seed) {
        return new RandomMariaDbCorpus(seed, OptimizerSettings.MARIADB_DEFAULTS).cases(30, 3, 14, 40, 5);
    }

    private static int tables(OptimizerCase c) {
        Matcher from = FROM.matcher(c.sql());
        assertThat(from.find()).as(c.sql()).isTrue();
        return from.group(1).split(", ").length;
    }

    @Test
    void holdsTheRandomJoinsTheLongSearchesAndTheInListsAskedFor() {
        List<OptimizerCase> cases = cases(1);

        assertThat(cases).hasSize(75);
        assertThat(cases.subList(30, 70)).allSatisfy(c -> assertThat(c.name()).contains("long"));
        assertThat(cases.subList(70, 75)).allSatisfy(c -> assertThat(c.name()).startsWith("IN list of"));
    }

    @Test
    void longSearchesRunWithoutPruningOverTheirShapesBand() {
        List<OptimizerCase> longOnes = cases(2).subList(30, 70);

        assertThat(longOnes).allSatisfy(c -> {
            assertThat(c.settings().pruneLevel()).isZero();
            int n = tables(c);
            if (c.settings().searchDepth() == 62) {
                assertThat(n).as(c.name()).isBetween(9, 13);
            } else {
                assertThat(c.name()).startsWith("clique");
                assertThat(c.settings().searchDepth()).isIn(6, 7);
                assertThat(n).isBetween(14, 24);
            }
        });
        assertThat(longOnes).extracting(c -> c.name().split(" ")[0]).contains("star", "chain", "clique", "random");
    }

    @Test
    void theSameSeedGivesTheSameStatementsAndAnotherSeedOthers() {
        assertThat(cases(7)).isEqualTo(cases(7));
        assertThat(cases(7)).isNotEqualTo(cases(8));
    }
}
