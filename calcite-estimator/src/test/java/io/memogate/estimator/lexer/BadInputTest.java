package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Whatever a client sends, the analysis returns a defined result: no exception, no stack overflow, and no
 * quadratic blow-up (the timeout only guards against a hang; the assertions are on results).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BadInputTest {

    /** The characters that start or end tokens. */
    private static final String MEANINGFUL = "'\"$()[];,.:-/*?E&\\\n 1aU_";

    private final LexicalAnalyzer analyzer = PostgresLexing.analyzer();

    private LexicalAnalysis analyze(String sql) {
        LexicalAnalysis analysis = analyzer.analyze(sql);
        for (StatementAnalysis s : analysis.statements()) {
            assertThat(s.fingerprint().text()).isNotNull();
            assertThat(s.span().end()).isLessThanOrEqualTo(sql.length());
        }
        return analysis;
    }

    @Test
    void emptyAndCommentOnlyTexts() {
        assertThat(analyze("").isEmpty()).isTrue();
        assertThat(analyze("-- x").isEmpty()).isTrue();
        assertThat(analyze("/* x */ /* y /* z */ */").isEmpty()).isTrue();
        assertThat(analyze(";;;").emptyStatements()).isEqualTo(3);
    }

    @Test
    void unterminatedForms() {
        for (String sql : new String[] {"select '", "select E'\\", "select \"", "select $$", "select $a$ x $a",
                "select /* /* */", "select B'", "select U&'", "select U&\"", "'", "\"", "$$", "/*"}) {
            LexicalAnalysis analysis = analyze(sql + "; select 2");
            assertThat(analysis.statements()).as(sql).hasSize(1);
            StatementAnalysis s = analysis.statements().get(0);
            TokenStream ts = PostgresLexing.tokens(s.span().of(sql + "; select 2"));
            assertThat(ts.kind(ts.size() - 1)).as(sql).isEqualTo(TokenKind.UNTERMINATED);
        }
    }

    @Test
    void aThousandNestedParentheses() {
        String sql = "select " + "(".repeat(1000) + "1" + ")".repeat(1000) + " from t";
        StatementAnalysis s = analyze(sql).statements().get(0);
        assertThat(s.maxNestingDepth()).isEqualTo(1000);
        assertThat(s.relations()).isEqualTo(1);
        assertThat(s.kind()).isEqualTo(StatementKind.SELECT);
    }

    @Test
    void unbalancedParentheses() {
        assertThat(analyze("select ((((( from t").statements()).hasSize(1);
        assertThat(analyze("select ))))) from t; select 1").statements()).hasSize(2);
        assertThat(analyze("with x as ((((").statements().get(0).kind()).isEqualTo(StatementKind.WITH);
        assertThat(analyze("copy ((((select").statements().get(0).kind()).isEqualTo(StatementKind.COPY_QUERY);
    }

    @Test
    void tenMegabyteStatement() {
        String sql = "select * from t where id in (" + "12345678, ".repeat(1_000_000) + "1) and x = 'y'";
        assertThat(sql.length()).isGreaterThan(10_000_000);
        StatementAnalysis s = analyze(sql).statements().get(0);
        assertThat(s.oversized()).isTrue();
        assertThat(s.relations()).isEqualTo(1);
        assertThat(s.kind()).isEqualTo(StatementKind.SELECT);
        assertThat(s.span()).isEqualTo(new StatementSpan(0, sql.length()));
    }

    @Test
    void tenMegabytesOfOneCharacter() {
        for (char c : new char[] {'(', ')', '\'', '"', '$', '-', '/', '*', ';', '?', '\\', 'e', '0', ' ', '\0'}) {
            String sql = String.valueOf(c).repeat(10_000_000);
            LexicalAnalysis analysis = analyze(sql);
            assertThat(analysis.statements().size() + analysis.emptyStatements()).as("%s", c).isPositive();
        }
    }

    @Test
    void manyStatements() {
        LexicalAnalysis analysis = analyze("select 1;".repeat(100_000));
        assertThat(analysis.statements()).hasSize(100_000);
        assertThat(analysis.statements().get(99_999).fingerprint())
                .isEqualTo(analysis.statements().get(0).fingerprint());
    }

    @Test
    void pathologicalRepetitions() {
        for (String unit : new String[] {"$a$", "$$x", "/*", "*/", "E'\\'", "''", "in (", "array[", "values (1),",
                "explain ", "with x as (", "1e", "0x", "--\n", "'a'\n", "u&", "::", "..", "?|?", "-1"}) {
            LexicalAnalysis analysis = analyze("select " + unit.repeat(200_000));
            assertThat(analysis.statements().size() + analysis.emptyStatements()).as(unit).isPositive();
        }
    }

    @Test
    void randomCharactersAndBytes() {
        Random random = new Random(20240607);
        for (int round = 0; round < 200; round++) {
            char[] chars = new char[random.nextInt(5000)];
            for (int i = 0; i < chars.length; i++) {
                chars[i] = round % 2 == 0
                        ? (char) random.nextInt(0x10000) // any UTF-16 unit, surrogates too
                        : MEANINGFUL.charAt(random.nextInt(MEANINGFUL.length()));
            }
            String sql = new String(chars);
            LexicalAnalysis analysis = analyze(sql);
            for (StatementAnalysis s : analysis.statements()) {
                assertThat(s.relations()).isNotNegative();
                assertThat(s.fingerprint().hash()).isEqualTo(Fingerprint.hashOf(s.fingerprint().text()));
            }
        }
    }

    @Test
    void bytesDecodedAsLatin1() {
        Random random = new Random(7);
        byte[] bytes = new byte[100_000];
        random.nextBytes(bytes);
        String sql = new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1);
        LexicalAnalysis analysis = analyze(sql);
        assertThat(analysis.statements().size() + analysis.emptyStatements()).isPositive();
    }
}
