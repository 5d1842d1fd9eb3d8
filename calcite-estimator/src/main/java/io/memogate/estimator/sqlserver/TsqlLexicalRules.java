package io.memogate.estimator.sqlserver;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.LexicalRules;
import io.memogate.estimator.lexer.LexicalRules.StringForm;
import io.memogate.estimator.lexer.TokenStream;

/**
 * T-SQL's lexical rules (<a href="https://learn.microsoft.com/en-us/sql/relational-databases/databases/database-identifiers">
 * Database identifiers</a>, with the default QUOTED_IDENTIFIER ON), and the analyzer that reads SQL Server's
 * batches with them:
 * <ul>
 * <li>{@code [...]} and {@code "..."} quote identifiers ({@code ]]} and {@code ""} inside); {@code @name}
 *     (variables, mssql-jdbc's {@code @P0} parameters), {@code @@name} and {@code #temp}, {@code ##temp} are
 *     identifiers, as T-SQL's first-character rule says;</li>
 * <li>{@code '...'} strings with {@code ''} for a quote and no escapes, {@code N'...'} too;</li>
 * <li>block comments nest;</li>
 * <li>statements need no separator: one ends where the next starts, or at a {@code GO} line
 *     ({@link LexicalRules.Builder#batchStatements}).</li>
 * </ul>
 */
public final class TsqlLexicalRules {

    public static final LexicalRules RULES = LexicalRules.builder()
            .identifierStarts("@#")
            .identifierParts("$")
            .operatorChars("~!^&|?+-*/%<>=")
            .stringPrefix('n', StringForm.STANDARD)
            .doubleQuotedIdentifiers(true)
            .bracketIdentifiers(true)
            .nestedComments(true)
            .batchStatements(true)
            .sizedListFingerprints(true)
            .placeholders(true)
            .build();

    private static final TsqlStatementReader READER = new TsqlStatementReader();

    private TsqlLexicalRules() {
    }

    /** The analyzer of T-SQL text, with the default longest statement read whole. */
    public static LexicalAnalyzer analyzer() {
        return new LexicalAnalyzer(RULES, READER, LexicalAnalyzer.DEFAULT_MAX_STATEMENT_CHARS);
    }

    /** All tokens of T-SQL text. */
    public static TokenStream tokens(String text) {
        return TokenStream.of(text, RULES);
    }
}
