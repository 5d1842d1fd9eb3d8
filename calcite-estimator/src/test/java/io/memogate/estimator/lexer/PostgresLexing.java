package io.memogate.estimator.lexer;

import io.memogate.estimator.lexer.StatementSplitter.Split;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.estimator.postgres.SettingParser;
import java.util.Optional;

/** The shared lexer's entry points under PostgreSQL's rules, for the tests of what they read from its text. */
final class PostgresLexing {

    static final LexicalRules RULES = PostgresLexicalRules.RULES;

    private PostgresLexing() {
    }

    static LexicalAnalyzer analyzer() {
        return PostgresLexicalRules.analyzer();
    }

    static LexicalAnalyzer analyzer(int maxStatementChars) {
        return PostgresLexicalRules.analyzer(maxStatementChars);
    }

    static SqlLexer lexer(String text) {
        return new SqlLexer(text, RULES);
    }

    static SqlLexer lexer(String text, int from, int to) {
        return new SqlLexer(text, from, to, RULES);
    }

    static TokenStream tokens(String text) {
        return TokenStream.of(text, RULES);
    }

    static Fingerprint fingerprint(String statement) {
        return Fingerprint.of(statement, RULES);
    }

    static Fingerprint fingerprint(TokenStream tokens) {
        return Fingerprint.of(tokens);
    }

    static Classification classification(String statement) {
        return Classification.of(statement, RULES);
    }

    static Classification classification(TokenStream tokens) {
        return Classification.of(tokens);
    }

    static RelationBound bound(String statement) {
        return RelationBound.of(statement, RULES);
    }

    static RelationBound bound(TokenStream tokens) {
        return RelationBound.of(tokens);
    }

    static Optional<SettingChange> settingChange(String statement) {
        return SettingParser.of(statement);
    }

    static Split split(String text) {
        return StatementSplitter.split(text, RULES);
    }

    static long skeleton(String text) {
        return TextSkeleton.key(text, RULES);
    }

    static long skeleton(String text, TokenStream scratch) {
        return TextSkeleton.key(text, scratch, RULES);
    }
}
