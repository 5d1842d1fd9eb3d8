package io.memogate.proxy.pg.admission;

import io.memogate.estimator.RoutineDefinitions;
import io.memogate.estimator.lexer.LexicalAnalysis;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.lexer.SettingChange;
import java.util.Collections;
import java.util.List;

/**
 * A statement text on its way to the server, read for what it changes in its session: planner settings
 * (SET, RESET, and those of the routines it calls: {@link SessionSettings}) and SQL-level prepared statements
 * (PREPARE, DEALLOCATE: {@link PreparedQueries}). Reading is the part whose time grows with the text (a scan for
 * those words, then a lexing when one is there), so it is kept apart from applying: a long text can be read off
 * the session's event loop, where a 64 MiB one took 80-180 ms to scan and a second to lex, and applied on it, in
 * order.
 *
 * <p>Immutable: read on any thread, applied on the session's.
 *
 * @param lexed the text lexed, when it may change settings or prepared statements; null when it cannot
 * @param leftByCalls when it may change settings, per statement what the routines it calls leave, as the session
 *     knew them when the text was read ({@link SessionSettings#leftByCalls}); empty when it cannot
 * @param maySet it holds "set" (every SET, RESET and set_config does) or the name of a routine that sets
 * @param mayPrepare it holds "prepare", "deallocate" or "discard"
 * @param mayOpenOrEnd it starts with a word of a statement that opens or ends a transaction block
 *     ({@link TransactionWords})
 */
public record SentText(String sql, LexicalAnalysis lexed, List<List<SettingChange>> leftByCalls, boolean maySet,
                       boolean mayPrepare, boolean mayOpenOrEnd) {

    /**
     * Reads {@code sql}: lexed only when it holds one of the words that change a session (rare), or the name of
     * one of {@code routines}, the session's database's, that changes its settings (rarer); and then read for what
     * the routines it calls leave, which lexes its statements again.
     */
    public static SentText read(String sql, LexicalAnalyzer analyzer, RoutineDefinitions routines) {
        SentText text = readIfChanging(sql, analyzer, routines);
        return text == null ? unread(sql) : text;
    }

    /**
     * As {@link #read}, but null for a text that holds none of the words (nearly every text): what
     * {@link #read} gives for it would change nothing, and a session reading each simple Query would make it for
     * nothing.
     */
    public static SentText readIfChanging(String sql, LexicalAnalyzer analyzer, RoutineDefinitions routines) {
        boolean callsSetter = routines.mayLeaveSettings(sql);
        boolean maySet = SessionSettings.mayHoldSet(sql) || callsSetter;
        boolean mayPrepare = PreparedQueries.mayPrepareOrDeallocate(sql);
        boolean mayOpenOrEnd = TransactionWords.mayOpenOrEnd(sql);
        if (!(maySet || mayPrepare || mayOpenOrEnd)) {
            return null;
        }
        LexicalAnalysis lexed = analyzer.analyze(sql);
        List<List<SettingChange>> left = maySet ? SessionSettings.leftByCalls(sql, lexed, routines, callsSetter)
                : Collections.nCopies(lexed.statements().size(), List.of());
        return new SentText(sql, lexed, left, maySet, mayPrepare, mayOpenOrEnd);
    }

    /** A text known to change nothing in the session (a Bind of a statement that cannot): nothing to read. */
    public static SentText unread(String sql) {
        return new SentText(sql, null, List.of(), false, false, false);
    }

    /**
     * Whether applying the text may change its session: it holds a SET, RESET or set_config, a call or DO block
     * that leaves a setting changed, a PREPARE, DEALLOCATE or DISCARD ALL, or it opens or ends a transaction block.
     * False for most texts whose words made them read ("update t set ...", "offset", a column prepared_at): a
     * prepared one need not be read again at its next Bind, and one that may be degraded is not kept from it.
     */
    public boolean changesSession() {
        return mayPrepare && lexed.statements().stream().anyMatch(st -> PreparedQueries.changesPrepared(sql, st))
                || maySet && (lexed.statements().stream().anyMatch(st -> st.settingChange().isPresent())
                || leftByCalls.stream().anyMatch(left -> !left.isEmpty()))
                || mayOpenOrEnd && lexed.statements().stream().anyMatch(st -> SessionSettings.opensOrEnds(st.kind()));
    }

    /** Applies the text's changes to its session's state, as the server will when it runs the text. */
    public void applyTo(SessionSettings settings, PreparedQueries prepared, boolean inTransaction) {
        if (maySet || mayOpenOrEnd) {
            settings.sent(lexed, leftByCalls, inTransaction);
        }
        if (mayPrepare) {
            prepared.sent(sql, lexed);
        }
    }
}
