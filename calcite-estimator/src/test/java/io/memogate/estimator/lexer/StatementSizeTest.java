package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/** What the lexer counts of a statement's size, in the pass that fingerprints it. */
class StatementSizeTest {

    private static StatementSize size(String sql) {
        return PostgresLexing.analyzer().analyze(sql).statements().get(0).size();
    }

    private static String numbers(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(Integer::toString).collect(Collectors.joining(", "));
    }

    @Test
    void listsOfConstantsAreCountedApartFromTheOtherTokens() {
        StatementSize in = size("select * from t where id in (" + numbers(1000) + ")");
        assertThat(in.listElements()).isEqualTo(1000);
        assertThat(in.listTokens()).isEqualTo(1999); // the constants and the commas between them
        assertThat(in.plainTokens()).isEqualTo(9);
        assertThat(size("select * from t where id = any(array[-1, +2, 3])").listElements()).isEqualTo(3);
        assertThat(size("select * from t where id = any('{1,2,3,4}')").listElements()).isEqualTo(4);
        assertThat(size("select '{1,2,3,4}' from t").listElements()).as("not an argument of ANY").isZero();
        assertThat(size("select * from t where id in (1, x)").listElements()).as("not all constants").isZero();
        assertThat(size("select * from t where id in (1, x)").plainTokens()).isEqualTo(12);

        StatementSize rows = size("insert into t values (1, 'a'), (2, 'b'), (3, 'c') returning id");
        assertThat(rows.valueRows()).isEqualTo(3);
        assertThat(rows.valueCells()).isEqualTo(6);
        assertThat(rows.listElements()).isZero();
        assertThat(rows.plainTokens()).isEqualTo(6); // insert into t values ... returning id
    }

    @Test
    void theSizeClassTellsLongListsApartAndShortOnesNot() {
        String ten = "select * from t where id in (" + numbers(10) + ")";
        String hundred = "select * from t where id in (" + numbers(100) + ")";
        String tenThousand = "select * from t where id in (" + numbers(10_000) + ")";
        String hundredThousand = "select * from t where id in (" + numbers(100_000) + ")";
        assertThat(PostgresLexing.fingerprint(ten)).isEqualTo(PostgresLexing.fingerprint(hundredThousand));
        assertThat(size(ten).sizeClass()).isZero().isEqualTo(size(hundred).sizeClass());
        assertThat(size(tenThousand).sizeClass()).isPositive().isLessThan(size(hundredThousand).sizeClass());
        assertThat(StatementSize.sizeClass(10_000)).isEqualTo(StatementSize.sizeClass(11_000))
                .isNotEqualTo(StatementSize.sizeClass(15_000));
    }

    @Test
    void theKeysPassGivesTheSameSizeClassAsTheAnalysis() {
        String text = "select 1; select * from t where id in (" + numbers(5000) + "); insert into t values "
                + IntStream.range(0, 3000).mapToObj(i -> "(" + i + ")").collect(Collectors.joining(","));
        LexicalAnalyzer analyzer = PostgresLexing.analyzer();
        StatementKeys keys = analyzer.keys(text, new TokenStream());
        LexicalAnalysis analysis = analyzer.analyze(text);
        assertThat(keys.size()).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(keys.sizeClass(i)).as("statement %d", i).isEqualTo(analysis.statements().get(i).sizeClass());
        }
        assertThat(keys.sizeClass(1)).isPositive();
    }

    @Test
    void anOversizedStatementIsSizedFromItsFirstPartScaledToAllItsTokens() {
        String sql = "select * from t where id in (" + numbers(50_000) + ")";
        StatementAnalysis st = PostgresLexing.analyzer(20_000).analyze(sql).statements().get(0);
        assertThat(st.oversized()).isTrue();
        assertThat(st.size().tokens()).isEqualTo(size(sql).tokens());
        assertThat((double) st.size().listElements()).isCloseTo(50_000, org.assertj.core.data.Percentage.withPercentage(5));
    }
}
