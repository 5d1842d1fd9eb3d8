package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The estimator answers a text from its skeleton key alone: two texts with one key must have the same
 * statements, fingerprint for fingerprint, or one would get the other's estimate. Texts differing only in
 * their constants and comments must share a key, or the key is useless.
 */
class TextSkeletonTest {

    /** Constants of every kind and spelling, some of which change how the text around them lexes. */
    private static final String[] CONSTANTS = {"1", "42", "3.5", ".5", "4.", "1e3", "2E-4", "0x1F", "0o17", "1_000",
        "1e", "1..2", "'x'", "''", "'it''s'", "'a\\'", "E'a\\'b'", "e'\\\\'", "E'", "B'101'", "X'1F'", "N'n'",
        "U&'d\\0061t'", "$$a$$", "$q$x;y'$q$", "$1", "$23", "'a'\n'b'", "'a' 'b'", "'--'", "'/*'", "$", "$$"};
    private static final String[] COMMENTS = {"/* c */", "/* it's */", "-- x\n", "-- 'y\n", "/* /* nested */ */",
        "/**/", "--\n"};

    private final LexicalAnalyzer analyzer = PostgresLexing.analyzer();
    private final TokenStream scratch = new TokenStream();
    private final Random random = new Random(20261122L);
    /** Each key seen, with the fingerprints of the first text that had it. */
    private final Map<Long, List<Long>> fingerprintsByKey = new HashMap<>();
    private final Map<Long, String> textByKey = new HashMap<>();

    @Test
    void textsWithOneKeyHaveTheSameFingerprints() {
        RandomStatements texts = new RandomStatements(7L);
        for (int i = 0; i < 20_000; i++) {
            String text = texts.next();
            check(text);
            for (int v = 0; v < 6; v++) {
                check(variant(text));
            }
        }
        assertThat(fingerprintsByKey).as("distinct keys seen").hasSizeGreaterThan(20_000);
    }

    @Test
    void whatConstantsAndCommentsHoldDoesNotChangeTheKey() {
        String sql = "SELECT * FROM a JOIN b ON a.id = b.id WHERE a.x = 'one' AND b.y IN (1, 2) LIMIT 10";
        long key = PostgresLexing.skeleton(sql);
        assertThat(PostgresLexing.skeleton(sql.replace("'one'", "E'it\\'s'"))).isEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("(1, 2)", "(0x1F, 2.5e3)"))).isEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("'one'", "$1"))).isEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("'one'", "$$one$$"))).isEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("(1, 2)", "($1, 2)")))
                .as("a number is marked apart: a sign folds into a number only").isNotEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace(" WHERE", " /* why */ WHERE")))
                .as("what a comment says").isEqualTo(PostgresLexing.skeleton(sql.replace(" WHERE", " /* it's */\n WHERE")));

        assertThat(PostgresLexing.skeleton(sql.replace("(1, 2)", "(1, 2, 3)"))).as("a list's length").isNotEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("b.y", "b.z"))).isNotEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("'one'", "one"))).as("a constant became a column").isNotEqualTo(key);
        assertThat(PostgresLexing.skeleton(sql.replace("SELECT", "select"))).as("case: a miss, not an error").isNotEqualTo(key);
    }

    /**
     * A stream kept across texts (as each event loop keeps one) lends its lexer to every key; that lexer must leave
     * nothing of one text in the next: the keys are those of a fresh stream, for texts of every length, shorter and
     * longer than the last, for a text too long for the kept buffers, and when the rules change between texts.
     */
    @Test
    void aKeptStreamGivesTheKeysOfAFreshOne() {
        LexicalRules hashComments = LexicalRules.builder().operatorChars("~!@^&|?+-*/%<>=").lineCommentChars("#")
                .backtickIdentifiers(true).plainStrings(LexicalRules.StringForm.ESCAPE).build();
        TokenStream kept = new TokenStream();
        RandomStatements texts = new RandomStatements(11L);
        String huge = "SELECT 1 FROM t WHERE a IN (" + "7, ".repeat(TokenStream.MAX_KEPT_CHARS / 3) + "8) AND b = 'x'";
        for (int i = 0; i < 5_000; i++) {
            String text = i % 1_000 == 999 ? huge : variant(texts.next());
            LexicalRules rules = i % 3 == 0 ? hashComments : PostgresLexing.RULES;
            assertThat(TextSkeleton.key(text, kept, rules)).as("%s", text)
                    .isEqualTo(TextSkeleton.key(text, new TokenStream(), rules));
        }
    }

    /** The marks cannot be spelled by the text itself: a U+FFFF of the text is hashed so that none reads as one. */
    @Test
    void theTextCannotSpellAMark() {
        assertThat(PostgresLexing.skeleton("select x\uFFFF?")).isNotEqualTo(PostgresLexing.skeleton("select x'1'"));
        assertThat(PostgresLexing.skeleton("select x\uFFFF#")).isNotEqualTo(PostgresLexing.skeleton("select x 1"));
        assertThat(PostgresLexing.skeleton("a\uFFFF/b")).isNotEqualTo(PostgresLexing.skeleton("a/* c */b"));
    }

    @Test
    void unterminatedTextsHaveNoKey() {
        assertThat(PostgresLexing.skeleton("select 'open")).isEqualTo(TextSkeleton.NONE);
        assertThat(PostgresLexing.skeleton("select 1 /* open")).isEqualTo(TextSkeleton.NONE);
        assertThat(PostgresLexing.skeleton("select $q$ open")).isEqualTo(TextSkeleton.NONE);
        assertThat(PostgresLexing.skeleton("")).isNotEqualTo(TextSkeleton.NONE);
    }

    /** The text with some constants replaced by others and comments added or changed. */
    private String variant(String text) {
        TokenStream tokens = PostgresLexing.tokens(text);
        StringBuilder b = new StringBuilder();
        int at = 0;
        for (int i = 0; i < tokens.size(); i++) {
            int start = tokens.start(i);
            String between = text.substring(at, start);
            if (random.nextInt(8) == 0) {
                between = between + COMMENTS[random.nextInt(COMMENTS.length)];
            }
            b.append(between);
            String token = tokens.tokenText(i);
            b.append(tokens.kind(i).isConstant() && random.nextBoolean() ? CONSTANTS[random.nextInt(CONSTANTS.length)]
                    : token);
            at = tokens.end(i);
        }
        b.append(text.substring(at));
        return b.toString();
    }

    private void check(String text) {
        long key = PostgresLexing.skeleton(text);
        if (key == TextSkeleton.NONE) {
            return;
        }
        StatementKeys keys = analyzer.keys(text, scratch);
        List<Long> fingerprints = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            fingerprints.add(keys.hash(k));
        }
        List<Long> first = fingerprintsByKey.putIfAbsent(key, fingerprints);
        if (first != null) {
            assertThat(fingerprints).as("%s%nand%n%s%nshare a key", textByKey.get(key), text).isEqualTo(first);
        } else {
            textByKey.put(key, text);
        }
    }
}
