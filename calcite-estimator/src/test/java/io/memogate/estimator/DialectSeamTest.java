package io.memogate.estimator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.memogate.estimator.CompileEstimate.Parser;
import io.memogate.estimator.dialect.Dialect;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.dialect.PlannerModel;
import io.memogate.estimator.dialect.Rewriter;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.IndexedColumns;
import io.memogate.estimator.planner.MemoryModel;
import io.memogate.estimator.planner.PlannerWork;
import io.memogate.estimator.postgres.MemoryCoefficients;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresDialect;
import java.util.List;
import java.util.Set;
import java.util.function.BiFunction;
import org.apache.calcite.sql.parser.SqlParser;
import org.junit.jupiter.api.Test;

/**
 * The estimator does what its dialect says: the settings a session starts with and those it may pass, the
 * rewrites before parsing, the planner model and the memory model all come from the {@link Dialect} it was
 * built with, not from the estimator.
 */
class DialectSeamTest {

    /** A star of six: 5 * 2^4 = 80 pairs for dynamic programming over the whole of it. */
    private static final String STAR = "SELECT * FROM f JOIN d1 ON f.a = d1.id JOIN d2 ON f.b = d2.id"
            + " JOIN d3 ON f.c = d3.id JOIN d4 ON f.d = d4.id JOIN d5 ON f.e = d5.id";
    /** PostgreSQL plans the UPDATE's target as one more FROM item; Babel reads only the rewritten SELECT. */
    private static final String UPDATE = "UPDATE a SET y = 1 FROM b, c WHERE a.x = b.x AND b.y = c.y";

    private static final PlannerSettings WRITTEN_ORDER = PlannerSettings.DEFAULTS.with("join_collapse_limit", "1");

    @Test
    void thePostgresDialectsSettingsChangeTheEstimate() {
        CompileEstimator postgres = new CompileEstimator(new PostgresDialect());

        CompileEstimate defaults = postgres.estimate(STAR, PlannerSettings.DEFAULTS);
        CompileEstimate written = postgres.estimate(STAR, WRITTEN_ORDER);

        assertThat(defaults.memoPairs()).isEqualTo(80);
        assertThat(written.memoPairs()).as("join_collapse_limit 1 keeps the written order: one pair a join")
                .isEqualTo(5);
        assertThat(written.estimatedBytes()).isLessThan(defaults.estimatedBytes());
        assertThat(postgres.estimate(STAR, null)).as("no settings: the dialect's defaults").isEqualTo(defaults);
    }

    @Test
    void aSessionWithoutSettingsIsPlannedUnderTheDialectsDefaults() {
        CompileEstimator writtenOrder = new CompileEstimator(new Replaced(WRITTEN_ORDER, null, null));

        assertThat(writtenOrder.estimate(STAR, null).memoPairs()).isEqualTo(5);
        assertThat(writtenOrder.estimate(STAR, PlannerSettings.DEFAULTS).memoPairs()).isEqualTo(80);
    }

    @Test
    void theRewritesBeforeParsingAreTheDialects() {
        CompileEstimate rewritten = new CompileEstimator(new PostgresDialect()).estimate(UPDATE, null);
        CompileEstimate asWritten = new CompileEstimator(new Replaced(null, query ->
                new Rewriter.Rewrite(query, List.of(), Set.of(), Set.of()), null)).estimate(UPDATE, null);

        assertThat(rewritten.parser()).isEqualTo(Parser.CALCITE);
        assertThat(rewritten.memoPairs()).isEqualTo(4); // a chain of three
        assertThat(asWritten.parser()).as("Babel cannot read UPDATE ... FROM: read off the tokens")
                .isEqualTo(Parser.LEXICAL);
    }

    @Test
    void theJoinSearchesAreTheDialectsPlannerModels() {
        CompileEstimator noJoins = new CompileEstimator(new Replaced(null, null, (settings, indexes) ->
                block -> PlannerWork.NONE));

        CompileEstimate e = noJoins.estimate(STAR, null);

        assertThat(e.parser()).isEqualTo(Parser.CALCITE);
        assertThat(e.blocks()).isZero();
        assertThat(e.memoPairs()).isZero();
        assertThat(e.reason()).endsWith("no join search");
        assertThat(e.estimatedBytes()).isLessThan(new CompileEstimator().estimate(STAR, null).estimatedBytes());
    }

    @Test
    void theBytesAreTheDialectsCoefficients() {
        MemoryCoefficients d = MemoryCoefficients.DEFAULTS;
        double[] doubled = d.toArray();
        doubled[MemoryCoefficients.NAMES.indexOf("bytesPerJoinPair")] *= 2;
        CompileEstimate defaults = new CompileEstimator(new PostgresDialect(d)).estimate(STAR, null);
        CompileEstimate dearer = new CompileEstimator(new PostgresDialect(MemoryCoefficients.of(doubled)))
                .estimate(STAR, null);

        assertThat(dearer.memoPairs()).isEqualTo(defaults.memoPairs());
        assertThat(dearer.estimatedBytes() - defaults.estimatedBytes())
                .isCloseTo(Math.round(defaults.terms().joinPairs() * d.bytesPerJoinPair()), within(1L));
    }

    /** An estimator picked for the wrong server says so, rather than planning under made-up defaults. */
    @Test
    void anotherDialectsSettingsAreRefused() {
        record OtherSettings() implements DialectSettings {
            @Override
            public OtherSettings with(String name, String value) {
                return this;
            }
        }

        assertThatThrownBy(() -> new CompileEstimator().estimate(STAR, new OtherSettings()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("a PostgreSQL estimator takes PlannerSettings, was OtherSettings");
    }

    /** PostgreSQL's dialect with its default settings, rewriter or planner model replaced where given. */
    private record Replaced(PlannerSettings defaults, Rewriter rewrites,
                            BiFunction<PlannerSettings, IndexedColumns, PlannerModel> model)
            implements Dialect<PlannerSettings> {

        private static final PostgresDialect POSTGRES = new PostgresDialect();

        @Override
        public String name() {
            return "PostgreSQL, replaced in parts";
        }

        @Override
        public LexicalAnalyzer analyzer() {
            return POSTGRES.analyzer();
        }

        @Override
        public SqlParser.Config parserConfig() {
            return POSTGRES.parserConfig();
        }

        @Override
        public Rewriter rewriter() {
            return rewrites != null ? rewrites : POSTGRES.rewriter();
        }

        @Override
        public Class<PlannerSettings> settingsType() {
            return PlannerSettings.class;
        }

        @Override
        public PlannerSettings defaultSettings() {
            return defaults != null ? defaults : POSTGRES.defaultSettings();
        }

        @Override
        public PlannerModel planner(PlannerSettings settings, IndexedColumns indexes) {
            return model != null ? model.apply(settings, indexes) : POSTGRES.planner(settings, indexes);
        }

        @Override
        public MemoryModel memory() {
            return POSTGRES.memory();
        }
    }
}
