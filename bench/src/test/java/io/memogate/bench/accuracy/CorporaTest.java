package io.memogate.bench.accuracy;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.estimator.CompileEstimate;
import io.memogate.estimator.CompileEstimator;
import io.memogate.estimator.postgres.PlannerSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The corpora hold what the report says they hold, and the estimator reads nearly all of it. */
class CorporaTest {

    private final CompileEstimator estimator = new CompileEstimator();

    @Test
    void tpchHasItsTwentyTwoQueriesAndQuery15sView() {
        Corpus tpch = Corpora.tpch();
        assertThat(tpch.statements()).extracting(Corpus.Member::id).hasSize(22).contains("q1", "q15", "q22");
        assertThat(tpch.setup()).singleElement().asString().containsIgnoringCase("CREATE OR REPLACE VIEW revenue");
    }

    @Test
    void tpcdsHasEveryTemplateAndTheMultiStatementOnesSplit() {
        Corpus tpcds = Corpora.tpcds();
        assertThat(tpcds.statements()).extracting(Corpus.Member::id).contains("q1", "q14a", "q14b", "q99");
        assertThat(tpcds.statements()).hasSizeGreaterThanOrEqualTo(99)
                .allSatisfy(m -> assertThat(m.sql()).doesNotContainIgnoringCase("define ").doesNotContain("["));
    }

    @Test
    void calciteParsesAtLeast95PercentOfEveryCorpus() {
        for (Corpus corpus : List.of(Corpora.tpch(), Corpora.tpcds(), Corpora.warehouse(), Corpora.synthetic(),
                Corpora.random(1, 150))) {
            long calcite = 0;
            long planned = 0;
            for (Corpus.Member m : corpus.statements()) {
                CompileEstimate e = estimator.estimate(m.sql(), PlannerSettings.DEFAULTS);
                if (!e.bypass()) {
                    planned++;
                    calcite += e.parser() == CompileEstimate.Parser.CALCITE ? 1 : 0;
                }
            }
            assertThat(planned).as(corpus.name()).isPositive();
            assertThat((double) calcite / planned).as("%s: %d of %d parsed by Calcite", corpus.name(), calcite, planned)
                    .isGreaterThanOrEqualTo(0.95);
        }
    }

    /** The random corpus is the same for a seed, holds every kind of restriction, and stays within its size. */
    @Test
    void theRandomCorpusIsReproducibleAndHoldsOuterJoinsAndSubqueries() {
        List<Corpus.Member> first = Corpora.random(7, 150).statements();
        assertThat(Corpora.random(7, 150).statements()).isEqualTo(first);
        assertThat(Corpora.random(8, 150).statements()).isNotEqualTo(first);
        for (String feature : List.of("-left", "-exists", "-anti", "-in", "-lateral", "-cte", "-union")) {
            assertThat(first).as(feature).anyMatch(m -> m.id().contains(feature));
        }
        assertThat(first).allSatisfy(m -> assertThat(m.sql().split(" s\\d+ t").length - 1)
                .isLessThanOrEqualTo(2 * RandomJoins.MAX_RELATIONS));
    }

    /**
     * Several seeds of `--seed` make a corpus each, named by its seed so that the report keeps their cells apart, on
     * the one database; a single seed keeps the name random.
     */
    @Test
    void severalSeedsAreCorporaOfTheirOwnOnTheOneDatabase() {
        assertThat(AccuracyCommand.randomCorpora(List.of(3L), 20)).extracting(Corpus::name).containsExactly("random");
        List<Corpus> corpora = AccuracyCommand.randomCorpora(List.of(1L, 2L, 1L), 20);
        assertThat(corpora).extracting(Corpus::name).containsExactly("random-seed1", "random-seed2");
        assertThat(corpora).extracting(Corpus::database).containsOnly(Corpora.RANDOM_DATABASE);
        assertThat(corpora.get(0).statements()).isEqualTo(Corpora.random(1, 20).statements())
                .isNotEqualTo(corpora.get(1).statements());
        assertThat(corpora.get(1).description()).contains("seed 2");
    }

    /** The indexed variant plans the same shapes over the same tables, with an index on every join column. */
    @Test
    void syntheticIndexedIndexesEveryJoinColumnOfTheSameShapes() {
        Corpus indexed = Corpora.syntheticIndexed();
        assertThat(indexed.setup()).hasSize(16 * 15).contains("CREATE INDEX ON s0 (k1)", "CREATE INDEX ON s15 (k14)");
        assertThat(indexed.statements()).extracting(Corpus.Member::id).contains("star14-limit", "clique8")
                .doesNotContain("clique9", "clique10");
        assertThat(Corpora.synthetic().statements()).containsAll(indexed.statements());
    }

    @Test
    void warehouseReportsComeWithAndWithoutTheirLimit() {
        List<String> ids = Corpora.warehouse().statements().stream().map(Corpus.Member::id).toList();
        assertThat(ids).contains("t01", "t01-nolimit", "t10");
        for (Corpus.Member m : Corpora.warehouse().statements()) {
            CompileEstimate e = estimator.estimate(m.sql(), PlannerSettings.DEFAULTS);
            assertThat(e.terms().fastStartJoinPairs() > 0).as(m.id()).isEqualTo(m.sql().contains("LIMIT"));
        }
    }

    @Test
    void syntheticShapesHaveTheirClosedFormPairsUnderWideSettings() {
        PlannerSettings wide = PlannerSettings.DEFAULTS.with("join_collapse_limit", "20")
                .with("from_collapse_limit", "20").with("geqo_threshold", "20");
        assertThat(pairs("star10", wide)).isEqualTo(9L * (1 << 8));
        assertThat(pairs("chain8", wide)).isEqualTo((8L * 8 * 8 - 8) / 6);
        assertThat(pairs("cycle8", wide)).isEqualTo((8L * 8 * 8 - 2 * 8 * 8 + 8) / 2);
        assertThat(pairs("clique7", wide)).isEqualTo((2187L - 256 + 1) / 2);
    }

    private long pairs(String id, PlannerSettings settings) {
        Corpus.Member member = Corpora.synthetic().statements().stream().filter(m -> m.id().equals(id)).findFirst()
                .orElseThrow();
        return estimator.estimate(member.sql(), settings).memoPairs();
    }
}
