package io.memogate.estimator.postgres;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.LexicalRules.StringForm;
import io.memogate.estimator.lexer.LexicalRules;
import io.memogate.estimator.lexer.TokenStream;

/**
 * PostgreSQL's lexical rules (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html">SQL
 * Syntax, Lexical Structure</a>, src/backend/parser/scan.l, with standard_conforming_strings on), and the
 * analyzer that reads PostgreSQL text with them and with {@link PostgresStatementReader}:
 * <ul>
 * <li>{@code /* *}{@code /} comments nest; a string continues over whitespace holding a newline;</li>
 * <li>{@code E'...'} takes backslash escapes, {@code B'...'} and {@code X'...'} none, {@code N'...'} and
 *     {@code U&'...'} are plain strings, {@code U&"..."} an identifier;</li>
 * <li>{@code $tag$...$tag$} is a string and {@code $1} a parameter; {@code $} continues an identifier;</li>
 * <li>operators are runs of {@code ~ ! @ # ^ & | ` ? + - * / % < > =} with the sign rule, and a lone {@code ?}
 *     is a placeholder ({@link LexicalRules.Builder#operatorSignRule}).</li>
 * </ul>
 */
public final class PostgresLexicalRules {

    public static final LexicalRules RULES = LexicalRules.builder()
            .identifierParts("$")
            .operatorChars("~!@#^&|`?+-*/%<>=")
            .stringPrefix('e', StringForm.ESCAPE)
            .stringPrefix('b', StringForm.BITS)
            .stringPrefix('x', StringForm.BITS)
            .stringPrefix('n', StringForm.STANDARD)
            .unicodePrefix(true)
            .plainStrings(StringForm.STANDARD)
            .nestedComments(true)
            .stringContinuation(true)
            .dollarQuotes(true)
            .doubleQuotedIdentifiers(true)
            .operatorSignRule(true)
            .placeholders(true)
            .build();

    private static final PostgresStatementReader READER = new PostgresStatementReader();

    private PostgresLexicalRules() {
    }

    /** The analyzer of PostgreSQL text, with the default longest statement read whole. */
    public static LexicalAnalyzer analyzer() {
        return analyzer(LexicalAnalyzer.DEFAULT_MAX_STATEMENT_CHARS);
    }

    /** The analyzer of PostgreSQL text, reading statements of up to {@code maxStatementChars} whole. */
    public static LexicalAnalyzer analyzer(int maxStatementChars) {
        return new LexicalAnalyzer(RULES, READER, maxStatementChars);
    }

    /** All tokens of PostgreSQL text. */
    public static TokenStream tokens(String text) {
        return TokenStream.of(text, RULES);
    }
}
