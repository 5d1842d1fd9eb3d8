package io.memogate.estimator.lexer;

import java.util.List;

/**
 * The statements of one text (a simple Query message may hold several), in order.
 *
 * @param statements the statements that have tokens
 * @param emptyStatements segments that held only whitespace and comments (see {@link StatementSplitter})
 */
public record LexicalAnalysis(List<StatementAnalysis> statements, int emptyStatements) {

    public LexicalAnalysis {
        statements = List.copyOf(statements);
    }

    /** True when there is no statement with tokens: the server answers EmptyQueryResponse. */
    public boolean isEmpty() {
        return statements.isEmpty();
    }

    /** The largest relation bound of the statements, 0 when there are none. */
    public int maxRelations() {
        int max = 0;
        for (StatementAnalysis s : statements) {
            max = Math.max(max, s.relations());
        }
        return max;
    }
}
