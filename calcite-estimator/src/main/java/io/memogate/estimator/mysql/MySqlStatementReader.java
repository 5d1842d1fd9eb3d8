package io.memogate.estimator.mysql;

import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementReader;
import io.memogate.estimator.lexer.TokenStream;
import java.util.List;
import java.util.Optional;

/**
 * What the estimator reads off MySQL statements in MySQL's own language: the session variable a SET assigns
 * ({@link SetAssignments}). A SET of several variables is one change per variable; the shared analysis takes
 * one change per statement, so this gives the last one the planner model reads, or else the last one: a text
 * that sets several optimizer variables in one SET and plans in the same text is estimated with the last
 * of them (the wing follows every one for the statements after it). MySQL's {@code DO expr} runs no code block:
 * it evaluates expressions, and plans no query the estimator reads.
 */
final class MySqlStatementReader implements StatementReader {

    @Override
    public Optional<SettingChange> settingChange(TokenStream statement) {
        List<SettingChange> changes = SetAssignments.of(statement);
        Optional<SettingChange> planner = changes.stream()
                .filter(change -> OptimizerSettings.NAMES.contains(change.name()))
                .reduce((first, second) -> second);
        return planner.isPresent() ? planner : changes.stream().reduce((first, second) -> second);
    }

    @Override
    public CodeBlock codeBlock(TokenStream statement) {
        return new CodeBlock("expressions", Optional.empty());
    }
}
