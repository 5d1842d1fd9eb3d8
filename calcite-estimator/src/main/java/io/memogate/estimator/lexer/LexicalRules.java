package io.memogate.estimator.lexer;

import java.util.Arrays;

/**
 * What one server's text is made of, as data the one lexer loop ({@link SqlLexer}) reads: which characters
 * continue identifiers and make operators, which quote and comment forms exist, whether comments nest, which
 * strings take backslash escapes, how identifiers are quoted, which {@code ?} is a placeholder. Each dialect
 * supplies one value (PostgreSQL's is {@code io.memogate.estimator.postgres.PostgresLexicalRules}); what every
 * server shares stays fixed here: whitespace, letters, digits and {@code _}, non-ASCII characters in
 * identifiers, {@code --} and {@code /* *}{@code /} comments, {@code '...'} strings with {@code ''} for a
 * quote, the punctuation {@code ( ) [ ] , ; . :} and numbers.
 *
 * <p>Rules are data, not code to call: the lexer runs on every statement the proxy sees, so it copies these
 * fields and tables into its own final fields and branches on them, with no call per character through an
 * interface that several dialects would make megamorphic. Immutable; made by {@link #builder()}.
 */
public final class LexicalRules {

    /** How a string form treats what is inside its quotes. */
    public enum StringForm {
        /** {@code ''} is a quote; no escapes (SQL's own strings, PostgreSQL's by default). */
        STANDARD,
        /** {@code ''} or backslash-anything (PostgreSQL's {@code E'...'}, MySQL's strings). */
        ESCAPE,
        /** The first quote ends the body: no escapes at all (PostgreSQL's {@code B'...'} and {@code X'...'}). */
        BITS
    }

    // Character classes of the ASCII characters, as SqlLexer tests them; every character from 0x80 up is an
    // identifier character.
    static final byte SPACE = 1;
    static final byte IDENT_START = 2;
    static final byte IDENT_PART = 4;
    static final byte DIGIT = 8;
    static final byte OPERATOR_CHAR = 16;
    /** An identifier's first character that cannot start a prefixed quote ({@code E'}, {@code U&"}, ...). */
    static final byte WORD_START = 32;
    /** A character that starts a comment to the end of the line by itself (MySQL's {@code #}). */
    static final byte LINE_COMMENT = 64;

    private static final StringForm[] FORMS = StringForm.values();

    final byte[] classes;
    /** Per ASCII letter, 1 + the ordinal of the {@link StringForm} it prefixes ({@code E'...'}), or 0. */
    final byte[] stringPrefixes;
    final StringForm plainStrings;
    final boolean nestedComments;
    final boolean stringContinuation;
    final boolean dollarQuotes;
    final boolean unicodePrefix;
    final boolean doubleQuotedIdentifiers;
    final boolean backtickIdentifiers;
    final boolean bracketIdentifiers;
    final boolean batchStatements;
    final boolean doubleQuotedStrings;
    final boolean dashCommentNeedsSpace;
    final boolean executableComments;
    final boolean sizedListFingerprints;
    final boolean mysqlStatements;
    final boolean operatorSignRule;
    final boolean placeholders;
    /** {@link TextSkeleton}'s classes of the ASCII characters under these rules. */
    final byte[] skeletonClasses;

    private LexicalRules(Builder b) {
        this.stringPrefixes = b.stringPrefixes.clone();
        this.plainStrings = b.plainStrings;
        this.nestedComments = b.nestedComments;
        this.stringContinuation = b.stringContinuation;
        this.dollarQuotes = b.dollarQuotes;
        this.unicodePrefix = b.unicodePrefix;
        this.doubleQuotedIdentifiers = b.doubleQuotedIdentifiers;
        this.backtickIdentifiers = b.backtickIdentifiers;
        this.bracketIdentifiers = b.bracketIdentifiers;
        this.batchStatements = b.batchStatements;
        this.doubleQuotedStrings = b.doubleQuotedStrings && !b.doubleQuotedIdentifiers;
        this.dashCommentNeedsSpace = b.dashCommentNeedsSpace;
        this.executableComments = b.executableComments;
        this.sizedListFingerprints = b.sizedListFingerprints;
        this.mysqlStatements = b.mysqlStatements;
        this.operatorSignRule = b.operatorSignRule;
        this.placeholders = b.placeholders;
        this.classes = classes(b);
        this.skeletonClasses = TextSkeleton.classes(this);
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Whether a string token whose first character is {@code first} takes backslash escapes. */
    boolean escapes(char first) {
        StringForm form = first == '\'' || first == '"' && doubleQuotedStrings ? plainStrings
                : first < 128 && stringPrefixes[first] != 0 ? FORMS[stringPrefixes[first] - 1]
                : StringForm.STANDARD;
        return form == StringForm.ESCAPE;
    }

    boolean isIdentifierQuote(char c) {
        return c == '"' && doubleQuotedIdentifiers || c == '`' && backtickIdentifiers || c == '[' && bracketIdentifiers;
    }

    /** Whether {@code c} opens a string constant by itself: {@code '}, and {@code "} where it quotes strings. */
    boolean isStringQuote(char c) {
        return c == '\'' || c == '"' && doubleQuotedStrings;
    }

    private static byte[] classes(Builder b) {
        byte[] classes = new byte[128];
        for (char c : " \t\n\r\f\u000B".toCharArray()) {
            classes[c] = SPACE;
        }
        for (char c = 'a'; c <= 'z'; c++) {
            classes[c] = IDENT_START | IDENT_PART;
            classes[Character.toUpperCase(c)] = IDENT_START | IDENT_PART;
        }
        classes['_'] = IDENT_START | IDENT_PART;
        for (char c = '0'; c <= '9'; c++) {
            classes[c] = DIGIT | IDENT_PART;
        }
        for (char c : b.identifierParts.toCharArray()) {
            classes[c] |= IDENT_PART;
        }
        for (char c : b.identifierStarts.toCharArray()) {
            classes[c] |= IDENT_START | IDENT_PART;
        }
        for (char c : b.operatorChars.toCharArray()) {
            classes[c] |= OPERATOR_CHAR;
        }
        for (char c : b.lineCommentChars.toCharArray()) {
            classes[c] = LINE_COMMENT;
        }
        if (b.backtickIdentifiers) {
            classes['`'] &= ~OPERATOR_CHAR;
        }
        for (int c = 0; c < 128; c++) {
            boolean prefix = b.stringPrefixes[c] != 0 || b.unicodePrefix && (c == 'u' || c == 'U');
            if ((classes[c] & IDENT_START) != 0 && !prefix) {
                classes[c] |= WORD_START;
            }
        }
        return classes;
    }

    /** Starts with no server's extras: {@code $}, operators, prefixes and the rest are each dialect's to add. */
    public static final class Builder {
        private String identifierParts = "";
        private String identifierStarts = "";
        private String operatorChars = "";
        private String lineCommentChars = "";
        private final byte[] stringPrefixes = new byte[128];
        private StringForm plainStrings = StringForm.STANDARD;
        private boolean nestedComments;
        private boolean stringContinuation;
        private boolean dollarQuotes;
        private boolean unicodePrefix;
        private boolean doubleQuotedIdentifiers;
        private boolean backtickIdentifiers;
        private boolean bracketIdentifiers;
        private boolean batchStatements;
        private boolean doubleQuotedStrings;
        private boolean dashCommentNeedsSpace;
        private boolean executableComments;
        private boolean sizedListFingerprints;
        private boolean mysqlStatements;
        private boolean operatorSignRule;
        private boolean placeholders;

        private Builder() {
        }

        /** ASCII characters besides letters, digits and {@code _} that continue an identifier ({@code $}). */
        public Builder identifierParts(String chars) {
            this.identifierParts = ascii(chars);
            return this;
        }

        /**
         * ASCII characters besides letters and {@code _} that start (and continue) an identifier: T-SQL's
         * {@code @} of variables and parameters, {@code #} of temporary tables.
         */
        public Builder identifierStarts(String chars) {
            this.identifierStarts = ascii(chars);
            return this;
        }

        /** The characters a run of which is an operator. */
        public Builder operatorChars(String chars) {
            this.operatorChars = ascii(chars);
            return this;
        }

        /** Characters that start a comment to the end of the line, as {@code --} does ({@code #}). */
        public Builder lineCommentChars(String chars) {
            this.lineCommentChars = ascii(chars);
            return this;
        }

        /** {@code letter'...'} (either case) is a string of this form ({@code E'...'}, {@code B'...'}). */
        public Builder stringPrefix(char letter, StringForm form) {
            if (letter >= 128 || !Character.isLetter(letter)) {
                throw new IllegalArgumentException("a string prefix is an ASCII letter, was " + letter);
            }
            byte code = (byte) (form.ordinal() + 1);
            stringPrefixes[Character.toLowerCase(letter)] = code;
            stringPrefixes[Character.toUpperCase(letter)] = code;
            return this;
        }

        /** How a plain {@code '...'} string reads: {@link StringForm#ESCAPE} where backslashes escape. */
        public Builder plainStrings(StringForm form) {
            this.plainStrings = form;
            return this;
        }

        /** Whether {@code /*} inside a block comment opens a nested one, which needs its own end. */
        public Builder nestedComments(boolean nested) {
            this.nestedComments = nested;
            return this;
        }

        /** Whether a string continues past whitespace holding a newline into the next quote. */
        public Builder stringContinuation(boolean continues) {
            this.stringContinuation = continues;
            return this;
        }

        /** Whether {@code $tag$...$tag$} is a string and {@code $1} a parameter. */
        public Builder dollarQuotes(boolean dollar) {
            this.dollarQuotes = dollar;
            return this;
        }

        /** Whether {@code U&'...'} and {@code U&"..."} are a string and an identifier. */
        public Builder unicodePrefix(boolean unicode) {
            this.unicodePrefix = unicode;
            return this;
        }

        /** Whether {@code "..."} is a quoted identifier. */
        public Builder doubleQuotedIdentifiers(boolean quoted) {
            this.doubleQuotedIdentifiers = quoted;
            return this;
        }

        /** Whether {@code `...`} is a quoted identifier ({@code `} then is no operator character). */
        public Builder backtickIdentifiers(boolean quoted) {
            this.backtickIdentifiers = quoted;
            return this;
        }

        /** Whether {@code [...]} is a quoted identifier, {@code ]]} for a {@code ]} inside (T-SQL). */
        public Builder bracketIdentifiers(boolean quoted) {
            this.bracketIdentifiers = quoted;
            return this;
        }

        /**
         * Whether statements of a batch need no separator (T-SQL): besides a top-level semicolon, a statement
         * ends before the word that starts the next one, and at a {@code GO} line ({@link StatementSplitter}).
         */
        public Builder batchStatements(boolean batch) {
            this.batchStatements = batch;
            return this;
        }

        /**
         * Whether {@code "..."} is a string constant of the plain strings' form, {@code ""} for a quote (MySQL
         * without ANSI_QUOTES); ignored when double quotes quote identifiers.
         */
        public Builder doubleQuotedStrings(boolean strings) {
            this.doubleQuotedStrings = strings;
            return this;
        }

        /**
         * Whether {@code --} starts a comment only when whitespace or a control character follows it (MySQL: in
         * {@code 1--1} the dashes are two minus signs).
         */
        public Builder dashCommentNeedsSpace(boolean needsSpace) {
            this.dashCommentNeedsSpace = needsSpace;
            return this;
        }

        /**
         * Whether {@code /*!} and {@code /*M!} comments, with an optional version number, hold text the server
         * runs (MySQL's and MariaDB's executable comments): the opener and the {@code *}{@code /} that closes
         * it are skipped like a comment, the text between them is lexed as any other.
         */
        public Builder executableComments(boolean executable) {
            this.executableComments = executable;
            return this;
        }

        /**
         * Whether a fingerprint's collapsed list of constants ({@code IN (?...)}, VALUES rows) keeps the power of
         * two at or below its length: where the server's compile memory grows with the list (MySQL), lists of
         * different sizes must not share an estimate.
         */
        public Builder sizedListFingerprints(boolean sized) {
            this.sizedListFingerprints = sized;
            return this;
        }

        /**
         * Whether the statement forms of MySQL and MariaDB are classified: {@code REPLACE} as an INSERT, and
         * MariaDB's {@code SET STATEMENT ... FOR statement} as the statement after FOR.
         */
        public Builder mysqlStatements(boolean mysql) {
            this.mysqlStatements = mysql;
            return this;
        }

        /**
         * PostgreSQL's operator rule: a multi-character operator loses trailing {@code +} and {@code -} unless
         * it holds one of {@code ~ ! @ # % ^ & | ` ?}.
         */
        public Builder operatorSignRule(boolean rule) {
            this.operatorSignRule = rule;
            return this;
        }

        /** Whether a {@code ?} the operator rule leaves alone is a placeholder. */
        public Builder placeholders(boolean placeholder) {
            this.placeholders = placeholder;
            return this;
        }

        public LexicalRules build() {
            return new LexicalRules(this);
        }

        private static String ascii(String chars) {
            if (chars.chars().anyMatch(c -> c >= 128 || Character.isLetterOrDigit(c) || Character.isWhitespace(c))) {
                throw new IllegalArgumentException("expected ASCII punctuation, was " + Arrays.toString(chars.toCharArray()));
            }
            return chars;
        }
    }
}
