package io.memogate.estimator.calcite;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One statement's record of the views and functions it expanded: what is being expanded now (so that one
 * that names itself stops), the limits, and the counts its estimate reports. Not thread-safe: one per
 * {@link QueryBlockBuilder}.
 */
final class Expansions {

    /** Views (and functions) within views followed at most this deep; deeper ones are one relation each. */
    static final int MAX_DEPTH = 16;
    /**
     * Views expanded at most in one statement: a view naming another twice, which names another twice, ...
     * doubles at each level, and the estimate need not follow every copy to know the statement is large.
     */
    static final int MAX_EXPANSIONS = 256;

    /** What is being expanded, innermost first. */
    private final Deque<String> expanding = new ArrayDeque<>();
    private int views;
    private int functions;
    private int tokens;
    private int readLexically;

    /** Whether {@code key} may be expanded now: within the limits, and not already being expanded. */
    boolean mayExpand(String key) {
        return expanding.size() < MAX_DEPTH && views + functions < MAX_EXPANSIONS && !expanding.contains(key);
    }

    /** One more expanded: a function call (else a view) whose definition has {@code definitionTokens}. */
    void count(boolean function, int definitionTokens, boolean lexical) {
        if (function) {
            functions++;
        } else {
            views++;
        }
        tokens += definitionTokens;
        if (lexical) {
            readLexically++;
        }
    }

    void enter(String key) {
        expanding.push(key);
    }

    void leave() {
        expanding.pop();
    }

    int views() {
        return views;
    }

    int functions() {
        return functions;
    }

    int tokens() {
        return tokens;
    }

    int readLexically() {
        return readLexically;
    }
}
