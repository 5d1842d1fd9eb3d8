package io.memogate.estimator.lexer;

import java.util.Locale;

/**
 * The words the lexical analysis acts on (statement kinds, clause boundaries, settings), recognized once
 * per identifier by the lexer. This is not PostgreSQL's key word list: a word missing here is still an
 * {@link TokenKind#IDENT}, and {@code set_config} is here although it is a function name. Matching is
 * case-insensitive for ASCII letters only, as PostgreSQL folds unquoted identifiers
 * (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS">4.1.1</a>).
 */
public enum Keyword {
    /** Not one of the words below (or not an identifier at all). */
    NONE,
    ABORT, ALL, ALTER, ANALYSE, ANALYZE, AND, ARRAY, AS, AUTHORIZATION,
    BEGIN, BETWEEN, CASE, CHARACTERISTICS, COMMIT, CONCURRENTLY, CONSTRAINTS, COPY, CREATE, CURSOR, CYCLE,
    DATA, DECLARE, DEFAULT, DELETE, DISTINCT, DO, DROP, ELSE, END, EXCEPT, EXECUTE, EXPLAIN, EXTRACT,
    FALSE, FETCH, FOR, FOREIGN, FROM, FUNCTION, GLOBAL, GROUP, HAVING, IN, INSERT, INTERSECT, INTO, IS,
    JOIN, KEY, LIMIT, LOCAL, LOCK, MATERIALIZED, MERGE, NAMES, NO, NOT, OFFSET, ON, OR, ORDER, OVERLAY,
    PG_CATALOG, PREPARE, PREPARED, PROCEDURE, RECURSIVE, REFRESH, RELEASE, REPLACE, RESET, RETURNING, ROLE,
    ROLLBACK, ROWS, SAVEPOINT, SCHEMA, SEARCH, SELECT, SESSION, SET, SET_CONFIG, SHOW, START, SUBSTRING,
    TABLE, TEMP, TEMPORARY, THEN, TIME, TO, TRANSACTION, TRIM, TRUE, TRUNCATE, UNION, UNLOGGED, UPDATE,
    USING, VALUES, VERBOSE, VIEW, WHEN, WHERE, WINDOW, WITH, WITHIN, WORK, ZONE;

    private static final Keyword[] BY_ORDINAL = values();
    private static final int MAX_LENGTH = 15;
    private static final int MASK = 511;
    /** Open addressing, ordinal per slot (0 = empty). Filled once here and never written again. */
    private static final short[] SLOTS = new short[MASK + 1];

    static {
        for (Keyword k : BY_ORDINAL) {
            if (k == NONE) {
                continue;
            }
            int slot = slot(k.tail, k.word.length());
            while (SLOTS[slot] != 0) {
                slot = (slot + 1) & MASK;
            }
            SLOTS[slot] = (short) k.ordinal();
        }
    }

    private final String word = name().toLowerCase(Locale.ROOT);
    private final long tail = tail(word, 0, word.length());

    /** The word in lower case, as a fingerprint spells it. */
    public String word() {
        return word;
    }

    /** The word {@code text[start, end)} spells, or {@link #NONE}. */
    static Keyword lookup(String text, int start, int end) {
        for (int p = start; p < end; p++) {
            if (text.charAt(p) >= 128) {
                return NONE;
            }
        }
        return lookup(text.toCharArray(), start, end, tail(text, start, end));
    }

    /**
     * As {@link #lookup(String, int, int)} for an ASCII identifier whose {@link #tail} the lexer computed
     * while scanning it: one hash and, nearly always, one comparison of a long.
     */
    static Keyword lookup(char[] text, int start, int end, long tail) {
        int length = end - start;
        if (length > MAX_LENGTH) {
            return NONE;
        }
        for (int slot = slot(tail, length), code; (code = SLOTS[slot]) != 0; slot = (slot + 1) & MASK) {
            Keyword k = BY_ORDINAL[code];
            if (k.tail == tail && k.word.length() == length && (length <= 8 || k.headSpelledBy(text, start))) {
                return k;
            }
        }
        return NONE;
    }

    /**
     * The last eight characters of an ASCII identifier, one byte each, {@code | 0x20} so that upper and lower
     * case letters agree (digits, {@code $} keep their value; {@code _} becomes 0x7F, which no identifier
     * character is).
     */
    static long tail(String text, int start, int end) {
        long tail = 0;
        for (int p = start; p < end; p++) {
            tail = (tail << 8) | ((text.charAt(p) | 0x20) & 0xFF);
        }
        return tail;
    }

    static Keyword ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** The characters before the last eight, which the tail does not cover. */
    private boolean headSpelledBy(char[] text, int start) {
        for (int i = 0; i < word.length() - 8; i++) {
            if (lower(text[start + i]) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int slot(long tail, int length) {
        return ((int) ((tail * 0x9E3779B97F4A7C15L) >>> 40) ^ length) & MASK;
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
