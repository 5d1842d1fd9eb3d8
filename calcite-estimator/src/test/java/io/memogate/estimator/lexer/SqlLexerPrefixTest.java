package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/**
 * The lexer takes a fast path for words whose first letter cannot prefix a quote; every other letter must
 * still be looked at: {@code B'} and {@code X'} start bit strings, {@code E'}, {@code N'} and {@code U&'}
 * strings, {@code U&"} a quoted identifier, in either case.
 */
class SqlLexerPrefixTest {

    @Test
    void onlyPrefixLettersJoinTheQuoteThatFollows() {
        for (char c = 'A'; c <= 'z'; c++) {
            if (!Character.isLetter(c)) {
                continue;
            }
            String sql = c + "'1'";
            String expected = switch (Character.toLowerCase(c)) {
                case 'b', 'x' -> "[BIT_STRING " + sql + "]";
                case 'e', 'n' -> "[STRING " + sql + "]";
                default -> "[IDENT " + c + ", STRING '1']";
            };
            assertThat(SqlLexerTest.tokens(sql)).as(sql).hasToString(expected);
        }
        assertThat(SqlLexerTest.tokens("u&'x' U&\"y\" ux bx")).containsExactly(
                "STRING u&'x'", "QUOTED_IDENT U&\"y\"", "IDENT ux", "IDENT bx");
    }
}
