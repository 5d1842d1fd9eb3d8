package io.memogate.estimator.lexer;

/**
 * A cheap upper bound on the base relations a statement's planning problems can hold, read from its tokens
 * alone, and the deepest nesting of parentheses and brackets in it. The proxy lets a statement whose bound
 * is at most one bypass admission, so the bound may over-count but must not under-count relations named in
 * the text; {@link RelationCounter} has the rules.
 *
 * <p>What the text does not name is out of its reach: a view or an inlined SQL function in FROM counts as
 * one relation here although the planner expands it into its own relations.
 *
 * @param relations relations named in the statement, summed over all its query blocks
 * @param maxNestingDepth deepest nesting of {@code (} and {@code [}
 */
public record RelationBound(int relations, int maxNestingDepth) {

    /** The bound for one statement's text, lexed by {@code rules}. */
    public static RelationBound of(String statement, LexicalRules rules) {
        return of(TokenStream.of(statement, rules));
    }

    /** The bound for all tokens of the stream, taken as one statement. */
    public static RelationBound of(TokenStream tokens) {
        RelationCounter counter = new RelationCounter();
        for (int i = 0; i < tokens.size(); i++) {
            counter.token(tokens.kinds()[i], tokens.words()[i], 0, 0);
        }
        return counter.result();
    }

    /** At most one relation: the statement may skip admission (the paper's small diagnostic queries). */
    public boolean atMostOneRelation() {
        return relations <= 1;
    }
}
