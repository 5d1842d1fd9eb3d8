package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class LexicalAnalyzerTest {

    private final LexicalAnalyzer analyzer = PostgresLexing.analyzer();

    @Test
    void everyStatementOfASimpleQuery() {
        String sql = "SET LOCAL join_collapse_limit = 1; ; select * from a join b on a.id = b.id where a.x = 1;\n"
                + "-- done\nshow geqo";
        LexicalAnalysis analysis = analyzer.analyze(sql);

        assertThat(analysis.emptyStatements()).isEqualTo(1);
        assertThat(analysis.statements()).hasSize(3);
        assertThat(analysis.maxRelations()).isEqualTo(2);

        StatementAnalysis set = analysis.statements().get(0);
        assertThat(set.span().of(sql)).isEqualTo("SET LOCAL join_collapse_limit = 1");
        assertThat(set.kind()).isEqualTo(StatementKind.SET);
        assertThat(set.settingChange()).contains(new SettingChange("join_collapse_limit", SettingChange.Action.SET,
                java.util.Optional.of("1"), SettingChange.Scope.LOCAL));
        assertThat(set.relations()).isZero();

        StatementAnalysis select = analysis.statements().get(1);
        assertThat(select.span().of(sql)).isEqualTo("select * from a join b on a.id = b.id where a.x = 1");
        assertThat(select.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(select.classification().queryText(sql)).isEqualTo(select.span().of(sql));
        assertThat(select.fingerprint()).isEqualTo(PostgresLexing.fingerprint("select * from a join b on a.id = b.id where a.x = 9"));
        assertThat(select.fingerprint().text()).isEqualTo("select * from a join b on a.id = b.id where a.x = ?");
        assertThat(select.relations()).isEqualTo(2);
        assertThat(select.settingChange()).isEmpty();
        assertThat(select.oversized()).isFalse();

        StatementAnalysis show = analysis.statements().get(2);
        assertThat(show.kind()).isEqualTo(StatementKind.SHOW);
        assertThat(show.relationBound().atMostOneRelation()).isTrue();
    }

    @Test
    void theResultsMatchThoseOfEachStatementAlone() {
        String sql = "with x as (select * from t, u) select * from x; explain (analyze) delete from t using u; "
                + "select set_config('geqo', 'off', false); copy (select 1 from v) to stdout";
        for (StatementAnalysis s : analyzer.analyze(sql).statements()) {
            String alone = s.span().of(sql);
            assertThat(s.fingerprint()).isEqualTo(PostgresLexing.fingerprint(alone));
            assertThat(s.relationBound()).isEqualTo(PostgresLexing.bound(alone));
            assertThat(s.settingChange()).isEqualTo(PostgresLexing.settingChange(alone));
            Classification c = PostgresLexing.classification(alone);
            assertThat(s.kind()).isEqualTo(c.kind());
            assertThat(s.classification().queryText(sql)).isEqualTo(c.queryText(alone));
        }
    }

    @Test
    void whichStatementsSkipAdmission() {
        String sql = "begin; set geqo = off; show work_mem; select 1; select * from t where id = $1; "
                + "insert into t values (1); create table t2 (a int); "
                + "select * from a, b; execute p(1); refresh materialized view mv; explain select * from a join b on true";
        List<Boolean> skips = analyzer.analyze(sql).statements().stream().map(StatementAnalysis::skipsAdmission)
                .toList();
        assertThat(skips).containsExactly(true, true, true, true, true, true, true, false, false, false, false);
    }

    @Test
    void anEmptyTextHasNoStatements() {
        LexicalAnalysis analysis = analyzer.analyze(" /* nothing */ ");
        assertThat(analysis.isEmpty()).isTrue();
        assertThat(analysis.emptyStatements()).isEqualTo(1);
        assertThat(analysis.maxRelations()).isZero();
    }

    @Test
    void oversizedStatementsAreHashedBySizeButBoundedByEveryToken() {
        LexicalAnalyzer small = PostgresLexing.analyzer(100);
        String sql = "select * from " + IntStream.rangeClosed(1, 50).mapToObj(i -> "table_" + i)
                .collect(Collectors.joining(", ")) + " where x = 1; select 1";
        LexicalAnalysis analysis = small.analyze(sql);

        StatementAnalysis big = analysis.statements().get(0);
        assertThat(big.oversized()).isTrue();
        assertThat(big.fingerprint().oversized()).isTrue();
        assertThat(big.relations()).isEqualTo(50);
        assertThat(big.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(big.span().end()).isEqualTo(sql.indexOf(';'));

        StatementAnalysis after = analysis.statements().get(1);
        assertThat(after.oversized()).isFalse();
        assertThat(after.fingerprint().text()).isEqualTo("select ?");
    }

    @Test
    void aReusedTokenStreamGivesTheSameResults() {
        TokenStream scratch = new TokenStream(2);
        String first = "select * from a, b, c where d in (1, 2)";
        String second = "update t set x = 1";
        LexicalAnalysis a1 = analyzer.analyze(first, scratch);
        LexicalAnalysis a2 = analyzer.analyze(second, scratch);
        assertThat(a1.statements().get(0).relations()).isEqualTo(3);
        assertThat(a1.statements().get(0).fingerprint().text()).isEqualTo("select * from a, b, c where d in (?...)");
        assertThat(a2.statements().get(0).kind()).isEqualTo(StatementKind.UPDATE);
        assertThat(a2.statements().get(0).fingerprint()).isEqualTo(PostgresLexing.fingerprint(second));
    }

    @Test
    void oneAnalyzerServesManyThreads() throws Exception {
        List<String> texts = IntStream.range(0, 200)
                .mapToObj(i -> "select * from t" + i + " join u on u.id = t" + i + ".id where v = " + i + "; commit")
                .toList();
        List<LexicalAnalysis> alone = texts.stream().map(analyzer::analyze).toList();
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            List<Future<LexicalAnalysis>> futures = new ArrayList<>();
            for (String text : texts) {
                futures.add(pool.submit(() -> analyzer.analyze(text)));
            }
            for (int i = 0; i < texts.size(); i++) {
                assertThat(futures.get(i).get()).isEqualTo(alone.get(i));
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void theLimitMustBePositive() {
        assertThatThrownBy(() -> PostgresLexing.analyzer(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("maxStatementChars must be at least 1, was 0");
    }
}
