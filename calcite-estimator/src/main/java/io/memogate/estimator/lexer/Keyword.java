package io.memogate.estimator.lexer;

import java.util.Arrays;
import java.util.Locale;

/**
 * The words the lexical analysis acts on (statement kinds, clause boundaries, settings), recognized once
 * per identifier by the lexer. This is not PostgreSQL's key word list: a word missing here is still an
 * {@link TokenKind#IDENT}, and {@code set_config} is here although it is a function name. One table for
 * every dialect (a token stores the word's ordinal): a dialect's own words, such as PostgreSQL's
 * {@code set_config} and {@code pg_catalog}, are added here. Matching is
 * case-insensitive for ASCII letters only, as PostgreSQL folds unquoted identifiers
 * (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-IDENTIFIERS">4.1.1</a>).
 */
public enum Keyword {
    /** Not one of the words below (or not an identifier at all). */
    NONE,
    ABORT, ALL, ALTER, ANALYSE, ANALYZE, AND, ANY, ARRAY, AS, AUTHORIZATION,
    BEGIN, BETWEEN, CASE, CHARACTERISTICS, COMMIT, CONCURRENTLY, CONSTRAINTS, COPY, CREATE, CROSS, CURSOR, CYCLE,
    DATA, DECLARE, DEFAULT, DELETE, DENY, DISTINCT, DO, DROP, ELSE, END, EXCEPT, EXEC, EXECUTE, EXPLAIN,
    EXTRACT, FALSE, FETCH, FOR, FOREIGN, FROM, FULL, FUNCTION, GLOBAL, GO, GRANT, GROUP, HAVING, IF, IN, INNER, INSERT,
    INTERSECT, INTO, IS, JOIN, KEY, LEFT, LIMIT, LOCAL, LOCK, MATERIALIZED, MERGE, NAMES, NO, NOT, OFFSET, ON, OR,
    ORDER, OUTER, OVERLAY, PG_CATALOG, PREPARE, PREPARED, PRINT, PROC, PROCEDURE, RAISERROR, RECURSIVE, REFRESH,
    RELEASE, REPLACE, RESET, RETURN, RETURNING, REVOKE, RIGHT, ROLE, ROLLBACK, ROWS, SAVEPOINT, SCHEMA, SEARCH,
    SELECT, SESSION, SET, SET_CONFIG, SHOW, START, SUBSTRING, TABLE, TEMP, TEMPORARY, THEN, THROW, TIME, TO,
    TRANSACTION, TRIGGER, TRIM, TRUE, TRUNCATE, UNION, UNLOGGED, UPDATE, USE, USING, VALUES, VERBOSE, VIEW,
    WHEN, WHERE, WHILE, WINDOW, WITH, WITHIN, WORK, ZONE;

    private static final Keyword[] BY_ORDINAL = values();
    private static final int MAX_LENGTH = 15;
    private static final Keyword[] NO_WORDS = {};
    /**
     * The words by first letter and length, {@code (letter - 'a') * 16 + length}: a bucket holds at most a few
     * words, so most identifiers are rejected by one load (aliases, names with no word of their first letter
     * and length) and the rest by comparing their first differing character. Never written after this.
     */
    private static final Keyword[][] BUCKETS = buckets();
    /**
     * Per bucket, bit {@code c - 'a'} set when one of its words has {@code c} second: one load of this small
     * table rejects most names (i_item_id, ss, sr_returned_date_sk) before a bucket is read.
     */
    private static final int[] SECOND_LETTERS = secondLetters();

    private final String word = name().toLowerCase(Locale.ROOT);
    /** The word's characters: the lookup compares arrays, without String.charAt's coder and bounds checks. */
    private final char[] spelling = word.toCharArray();

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
        return lookup(text.toCharArray(), start, end);
    }

    /** As {@link #lookup(String, int, int)} for an ASCII identifier in {@code text[start, end)}, which the lexer found. */
    static Keyword lookup(char[] text, int start, int end) {
        int length = end - start;
        int letter = lower(text[start]) - 'a';
        if (length < 2 || length > MAX_LENGTH || letter < 0 || letter >= 26) {
            return NONE; // no word here has one letter
        }
        int bucket = letter * 16 + length;
        int second = lower(text[start + 1]) - 'a';
        if (second < 0 || second >= 26 || (SECOND_LETTERS[bucket] >>> second & 1) == 0) {
            return NONE;
        }
        for (Keyword k : BUCKETS[bucket]) {
            if (k.spelledBy(text, start)) {
                return k;
            }
        }
        return NONE;
    }

    /** Whether the characters after the first spell this word (the bucket matched the first and the length). */
    private boolean spelledBy(char[] text, int start) {
        char[] w = spelling;
        for (int i = 1; i < w.length; i++) {
            if (lower(text[start + i]) != w[i]) {
                return false;
            }
        }
        return true;
    }

    private static Keyword[][] buckets() {
        Keyword[][] buckets = new Keyword[26 * 16][];
        Arrays.fill(buckets, NO_WORDS);
        for (Keyword k : BY_ORDINAL) {
            if (k == NONE) {
                continue;
            }
            int b = (k.word.charAt(0) - 'a') * 16 + k.word.length();
            buckets[b] = Arrays.copyOf(buckets[b], buckets[b].length + 1);
            buckets[b][buckets[b].length - 1] = k;
        }
        return buckets;
    }

    private static int[] secondLetters() {
        int[] masks = new int[26 * 16];
        for (Keyword k : BY_ORDINAL) {
            if (k != NONE) {
                masks[(k.word.charAt(0) - 'a') * 16 + k.word.length()] |= 1 << (k.word.charAt(1) - 'a');
            }
        }
        return masks;
    }

    static Keyword ofOrdinal(int ordinal) {
        return BY_ORDINAL[ordinal];
    }

    /** A table by ordinal, true for the words given: for the per-token passes, one load instead of a switch. */
    static boolean[] table(Keyword... words) {
        boolean[] table = new boolean[BY_ORDINAL.length];
        for (Keyword k : words) {
            table[k.ordinal()] = true;
        }
        return table;
    }

    /** ASCII upper case to lower case, with one compare: a char is unsigned, so below 'A' wraps to a large one. */
    static char lower(char c) {
        return (char) (c + ((char) (c - 'A') < 26 ? 'a' - 'A' : 0));
    }
}
