package io.memogate.proxy.mysql.session;

import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.SettingChange;
import io.memogate.estimator.lexer.StatementAnalysis;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.mysql.MySqlLexicalRules;
import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.mysql.SetAssignments;
import io.memogate.proxy.admission.Words;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The optimizer variables one MySQL session has set ({@code SET [SESSION] optimizer_search_depth = ...},
 * optimizer_prune_level, optimizer_switch), kept as the values it gave over the server's defaults, so that a
 * default the broker reads later still shows through the variables the session left alone. {@code SET ... =
 * DEFAULT} gives a variable back its default; COM_RESET_CONNECTION and COM_CHANGE_USER give back all of them.
 * A statement's {@code SET STATEMENT ... FOR} applies to that statement only ({@link #forStatement}). Texts are
 * lexed only when they name an optimizer variable. Used on the session's event loop only.
 */
final class SessionSettings {

    /** Variable to value, in the order the session set them (optimizer_switch changes add up in order). */
    private final Map<String, String> set = new LinkedHashMap<>();

    /** The session's settings over {@code defaults}, the server's. */
    DialectSettings current(DialectSettings defaults) {
        DialectSettings settings = defaults;
        for (Map.Entry<String, String> variable : set.entrySet()) {
            settings = settings.with(variable.getKey(), variable.getValue());
        }
        return settings;
    }

    /** The settings {@code text} is planned with: the session's, with its SET STATEMENT's over them. */
    DialectSettings forStatement(String text, DialectSettings defaults) {
        DialectSettings settings = current(defaults);
        if (!namesOptimizer(text)) {
            return settings;
        }
        TokenStream tokens = MySqlLexicalRules.tokens(text);
        for (SettingChange change : SetAssignments.ofSetStatement(tokens)) {
            if (change.value().isPresent()) {
                settings = settings.with(change.name(), change.value().get());
            }
        }
        return settings;
    }

    /** Follows the SETs of a text the server was sent, in order. */
    void sent(String text) {
        if (!namesOptimizer(text)) {
            return;
        }
        LexicalAnalysis analysis = MySqlLexicalRules.analyzer().analyze(text);
        for (StatementAnalysis statement : analysis.statements()) {
            List<SettingChange> changes = SetAssignments.of(
                    MySqlLexicalRules.tokens(text.substring(statement.span().start(), statement.span().end())));
            changes.stream().filter(change -> OptimizerSettings.NAMES.contains(change.name())).forEach(this::apply);
        }
    }

    private void apply(SettingChange change) {
        String before = set.remove(change.name()); // the latest value goes last, after the others it may build on
        if (change.action() != SettingChange.Action.SET || change.value().isEmpty()) {
            return;
        }
        String value = change.value().get();
        // Each optimizer_switch changes the flags it names only: the session's are all its changes in turn.
        boolean switches = change.name().equals("optimizer_switch") && before != null
                && !value.trim().equalsIgnoreCase("default");
        set.put(change.name(), switches ? before + "," + value : value);
    }

    /** The session is reset or changes user: the server's defaults again. */
    void reset() {
        set.clear();
    }

    private static boolean namesOptimizer(String text) {
        return Words.containsIgnoreCase(text, "optimizer_");
    }
}
