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
    private static final int MASK = 1023;
    /** Open addressing, ordinal per slot (0 = empty). Filled once here and never written again. */
    private static final short[] SLOTS = new short[MASK + 1];
    /**
     * Per initial letter, a bit per length some word of that initial has: most identifiers are rejected with
     * this one load, before hashing. Filled once here and never written again.
     */
    private static final int[] LENGTHS_BY_INITIAL = new int[26];

    static {
        for (Keyword k : BY_ORDINAL) {
            if (k == NONE) {
                continue;
            }
            String w = k.word;
            int slot = hash(w.length(), w.charAt(0), w.charAt(1), w.charAt(w.length() - 1)) & MASK;
            while (SLOTS[slot] != 0) {
                slot = (slot + 1) & MASK;
            }
            SLOTS[slot] = (short) k.ordinal();
            LENGTHS_BY_INITIAL[w.charAt(0) - 'a'] |= 1 << w.length();
        }
    }

    private final String word = name().toLowerCase(Locale.ROOT);

    /** The word in lower case, as a fingerprint spells it. */
    public String word() {
        return word;
    }

    /** The word {@code text[start, end)} spells, or {@link #NONE}. Constant time for words of other lengths. */
    static Keyword lookup(String text, int start, int end) {
        int length = end - start;
        int initial = (text.charAt(start) | 0x20) - 'a'; // other characters than letters fall outside 0..25
        if (length > MAX_LENGTH || initial < 0 || initial >= 26 || (LENGTHS_BY_INITIAL[initial] & (1 << length)) == 0) {
            return NONE;
        }
        int slot = hash(length, lower(text.charAt(start)), lower(text.charAt(start + 1)),
                lower(text.charAt(end - 1))) & MASK;
        for (int code; (code = SLOTS[slot]) != 0; slot = (slot + 1) & MASK) {
            Keyword k = BY_ORDINAL[code];
            if (k.word.length() == length && k.spelledBy(text, start)) {
                return k;
            }
        }
        return NONE;
    }

    static Keyword ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    private boolean spelledBy(String text, int start) {
        for (int i = 0; i < word.length(); i++) {
            if (lower(text.charAt(start + i)) != word.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private static int hash(int length, char first, char second, char last) {
        return length * 0x9E37 ^ first * 0x3C1 ^ second * 0x65 ^ last * 7;
    }

    static char lower(char c) {
        return c >= 'A' && c <= 'Z' ? (char) (c + ('a' - 'A')) : c;
    }
}
