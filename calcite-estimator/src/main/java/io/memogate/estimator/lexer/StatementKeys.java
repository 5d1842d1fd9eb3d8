package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * The cache keys of a text's statements, from {@link LexicalAnalyzer#keys}: each statement's fingerprint hash,
 * the size class of its lists of constants and whether it was oversized, in order, computed without keeping the tokens, classifying the statements
 * or bounding their relations. An estimate cached under a statement's key answers for it; but not for EXECUTE,
 * whose estimate depends on what the session prepared, nor for DO, whose body is a string constant and so left
 * out of the key; the keys say whether one is among the statements. They also say whether the text has
 * parameters ({@code $1}, {@code ?}): such a text is a prepared statement's, sent again verbatim at every
 * execution. Nor does a key answer for a statement after a SET, RESET or set_config in the same text: the
 * server plans it under the settings those leave, which its key does not hold.
 */
public final class StatementKeys {

    private long[] hashes = new long[1];
    private boolean[] oversized = new boolean[1];
    private int[] sizeClasses = new int[1];
    private int size;
    private boolean needsText;
    private boolean parameters;
    /** A statement so far may change the planner settings of those after it. */
    private boolean settingsChanged;

    StatementKeys() {
    }

    void add(long hash, int sizeClass, boolean oversizedStatement, boolean keyIsNotEnough, boolean withParameters,
             boolean changesSettings) {
        if (size == hashes.length) {
            hashes = Arrays.copyOf(hashes, size * 2);
            oversized = Arrays.copyOf(oversized, size * 2);
            sizeClasses = Arrays.copyOf(sizeClasses, size * 2);
        }
        hashes[size] = hash;
        sizeClasses[size] = sizeClass;
        oversized[size] = oversizedStatement;
        size++;
        needsText |= keyIsNotEnough || settingsChanged;
        parameters |= withParameters;
        settingsChanged |= changesSettings;
    }

    /** Statements with tokens, as {@link LexicalAnalysis#statements()} has them. */
    public int size() {
        return size;
    }

    /** Statement i's {@link Fingerprint#hash()}. */
    public long hash(int i) {
        return hashes[checked(i)];
    }

    /** Statement i's {@link StatementSize#sizeClass()}: with the hash, what its cached estimate is keyed by. */
    public int sizeClass(int i) {
        return sizeClasses[checked(i)];
    }

    /** Statement i's {@link Fingerprint#oversized()}. */
    public boolean oversized(int i) {
        return oversized[checked(i)];
    }

    /**
     * True when a statement is an EXECUTE or a DO (its first word), or follows a SET, RESET or set_config, whose
     * estimate its key alone cannot give.
     */
    public boolean needsText() {
        return needsText;
    }

    /** True when a statement has a parameter, {@code $n} or {@code ?}. */
    public boolean parameters() {
        return parameters;
    }

    private int checked(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("statement " + i + " of " + size);
        }
        return i;
    }
}
