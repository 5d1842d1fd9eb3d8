package io.memogate.estimator.lexer;

/**
 * How much text a statement gives the server's planner to process, whatever it joins: PostgreSQL copies,
 * simplifies and estimates the selectivity of every expression, so a one-relation statement with an IN list
 * of 100,000 constants plans in about 33 MB. Counted by the lexer in its single pass ({@link Normalizer}
 * follows the lists it collapses), so that a statement naming one relation is sized without parsing it.
 *
 * @param tokens the statement's tokens
 * @param listElements constants in the {@code IN (c, ...)} and {@code ARRAY[c, ...]} lists of constants, and
 *     the elements of array literals ({@code = ANY('{1,2,3}')})
 * @param valueRows rows of {@code VALUES (c, ...), ...} lists of constants
 * @param valueCells constants in those rows
 * @param listTokens the tokens inside those lists (constants, signs, commas, the rows' parentheses), which
 *     the lists' own counts stand for: per token they cost the planner less than other tokens
 */
public record StatementSize(int tokens, int listElements, int valueRows, int valueCells, int listTokens) {

    /** A statement without tokens. */
    public static final StatementSize NONE = new StatementSize(0, 0, 0, 0, 0);

    /** Lists of fewer constants than this all share the cache key's {@link #sizeClass()} 0. */
    static final int SMALL_LISTS = 256;

    public StatementSize {
        if (tokens < 0 || listElements < 0 || valueRows < 0 || valueCells < 0 || listTokens < 0) {
            throw new IllegalArgumentException("counts must be >= 0: " + tokens + ", " + listElements + ", "
                    + valueRows + ", " + valueCells + ", " + listTokens);
        }
    }

    /** The tokens outside the lists of constants. */
    public int plainTokens() {
        return Math.max(0, tokens - listTokens);
    }

    /**
     * The lists' length to half an octave (0 for lists shorter than {@value #SMALL_LISTS} constants), which
     * the estimate caches add to a fingerprint: the fingerprint collapses lists of constants, so without it a
     * list of 10 would answer for a list of 100,000. Within a class the lists' constants differ by at most
     * 1.42 times.
     */
    public int sizeClass() {
        return sizeClass(listElements + valueCells);
    }

    static int sizeClass(int constants) {
        if (constants < SMALL_LISTS) {
            return 0;
        }
        int octave = 31 - Integer.numberOfLeadingZeros(constants);
        boolean upperHalf = (long) constants * constants >= 1L << (2 * octave + 1); // constants >= 2^octave * sqrt 2
        return 2 * octave + (upperHalf ? 1 : 0);
    }

    /**
     * These counts, taken over the first part of a statement, scaled to a statement of {@code allTokens}
     * tokens of the same make-up (a statement too long to keep all its tokens).
     */
    StatementSize scaledTo(int allTokens) {
        if (tokens == 0 || allTokens <= tokens) {
            return this;
        }
        double factor = (double) allTokens / tokens;
        return new StatementSize(allTokens, scale(listElements, factor), scale(valueRows, factor),
                scale(valueCells, factor), scale(listTokens, factor));
    }

    private static int scale(int count, double factor) {
        return (int) Math.min(Integer.MAX_VALUE, Math.round(count * factor));
    }
}
