package io.memogate.estimator.mysql;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.LexicalRules;
import io.memogate.estimator.lexer.LexicalRules.StringForm;
import io.memogate.estimator.lexer.TokenStream;

/**
 * MySQL's and MariaDB's lexical rules (<a href="https://dev.mysql.com/doc/refman/8.4/en/language-structure.html">
 * Language Structure</a>, with the default sql_mode: no ANSI_QUOTES, no NO_BACKSLASH_ESCAPES), and the analyzer
 * that reads their text with them and with {@link MySqlStatementReader}:
 * <ul>
 * <li>{@code #} comments to the end of the line; {@code --} starts one only before whitespace or a control
 *     character ({@code 1--1} is two minus signs); block comments do not nest;</li>
 * <li>{@code /*! ... *}{@code /} and MariaDB's {@code /*M! ... *}{@code /}, with or without a version number, hold
 *     text the server runs: it is lexed as any other ({@code SELECT /*! STRAIGHT_JOIN *}{@code / ...});</li>
 * <li>{@code '...'} and {@code "..."} are strings taking backslash escapes, {@code N'...'} too,
 *     {@code X'...'} and {@code B'...'} hex and bit strings; {@code `...`} quotes identifiers;</li>
 * <li>{@code REPLACE} is an INSERT and {@code SET STATEMENT ... FOR statement} the statement after FOR; a
 *     fingerprint's collapsed IN list or VALUES rows keep the power of two of their length, since MySQL's memory
 *     grows with them;</li>
 * <li>{@code $} continues an identifier; {@code @var} and {@code @@var} are an operator and a name, which
 *     the rewriter reads as a parameter; {@code ?} is a placeholder.</li>
 * </ul>
 */
public final class MySqlLexicalRules {

    public static final LexicalRules RULES = LexicalRules.builder()
            .identifierParts("$")
            .operatorChars("~!@^&|?+-*/%<>=")
            .lineCommentChars("#")
            .stringPrefix('n', StringForm.ESCAPE)
            .stringPrefix('x', StringForm.BITS)
            .stringPrefix('b', StringForm.BITS)
            .plainStrings(StringForm.ESCAPE)
            .doubleQuotedStrings(true)
            .backtickIdentifiers(true)
            .nestedComments(false)
            .dashCommentNeedsSpace(true)
            .executableComments(true)
            .sizedListFingerprints(true)
            .mysqlStatements(true)
            .placeholders(true)
            .build();

    private static final MySqlStatementReader READER = new MySqlStatementReader();

    private MySqlLexicalRules() {
    }

    /** The analyzer of MySQL text, with the default longest statement read whole. */
    public static LexicalAnalyzer analyzer() {
        return analyzer(LexicalAnalyzer.DEFAULT_MAX_STATEMENT_CHARS);
    }

    /** The analyzer of MySQL text, reading statements of up to {@code maxStatementChars} whole. */
    public static LexicalAnalyzer analyzer(int maxStatementChars) {
        return new LexicalAnalyzer(RULES, READER, maxStatementChars);
    }

    /** All tokens of MySQL text. */
    public static TokenStream tokens(String text) {
        return TokenStream.of(text, RULES);
    }
}
