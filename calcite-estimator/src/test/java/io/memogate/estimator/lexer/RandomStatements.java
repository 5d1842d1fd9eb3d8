package io.memogate.estimator.lexer;

import java.util.Random;

/**
 * Random texts for comparing the lexical analysis before and after a rewrite: mostly token soup drawn to
 * hit the fingerprint's special cases (IN, ARRAY and VALUES lists of constants that hold or break the
 * pattern, signs before numbers, clause words before signs), the relation counter's words and nesting, the
 * classifier's statement forms and the splitter's semicolons, with every quoting form, comments and
 * separators that glue tokens, unterminated quotes and non-ASCII characters. Deterministic for a seed.
 */
final class RandomStatements {

    private static final String[] WORDS = {"select", "from", "where", "in", "values", "array", "and", "or", "not",
            "join", "left", "on", "update", "set", "insert", "into", "delete", "using", "merge", "table", "create",
            "with", "recursive", "as", "explain", "analyze", "group", "by", "order", "limit", "offset", "rows",
            "distinct", "is", "extract", "substring", "trim", "t", "a", "b", "x", "Foo", "SELECT", "FROM", "In",
            "VALUES", "Array", "set_config", "pg_catalog", "reset", "all", "time", "zone", "local", "session",
            "begin", "end", "case", "when", "then", "else", "function", "procedure", "or", "replace", "prepare",
            "execute", "declare", "cursor", "for", "copy", "to", "data", "no", "returning", "default", "between",
            "having", "window", "union", "except", "fetch", "key", "do", "within", "materialized", "view",
            "refresh", "savepoint", "rollback", "commit", "release", "temp", "lateral", "naïve", "é", "ß_x",
            "a$b", "_u", "unlogged", "start", "transaction", "show", "work", "prepared", "names", "role"};
    private static final String[] CONSTANTS = {"1", "42", "3.5", ".5", "4.", "1e3", "2E-4", "0x1F", "0o17",
            "0b101", "1_000", "'s'", "'it''s'", "E'\\'x'", "e'a\\\\'", "$$d$$", "$t$ ' $$ x$t$", "$1", "$12", "?",
            "B'101'", "X'1F'", "N'n'", "U&'u'", "'a'\n'b'", "'a' -- c\n 'b'", "1..10", "0x", "123abc", "1e", "2.e5"};
    private static final String[] PUNCTUATION = {"(", ")", "[", "]", ",", ";", ".", "::", ":", ":=", "..", "*"};
    private static final String[] OPERATORS = {"=", "-", "+", "*", "/", "<", ">", "<=", "<>", "->>", "@>", "?|",
            "=-", "+-", "||", "~", "!=", "-+", "?-|", "*-", "@-", "%", "^", "&", "`", "|", "#", "!"};
    private static final String[] QUOTED = {"\"Q\"", "\"a\"\"b\"", "U&\"u\"", "\"select\"", "\"\""};
    private static final String[] ODD = {"\\", "{", "}", "$", "\u0000", "$x", "'open", "\"open", "/* open",
            "$q$open", "e'\\", "b'1", "/* a /* b */", "--", "/**/"};
    private static final String[] SEPARATORS = {" ", " ", " ", "", "", "\n", "  ", "\t", "/* c */", "-- c\n",
            "\r\n", "\f", "/* /* n */ */", "\u000B"};
    private static final String[] LIST_WORDS = {"in", "IN", "values", "VALUES", "array", "ARRAY"};
    private static final String[] CLAUSE_WORDS = {"select", "where", "and", "or", "not", "then", "else", "when",
            "case", "between", "limit", "offset", "on", "having", "returning", "to", "default", "x", "from"};

    private final Random random;

    RandomStatements(long seed) {
        this.random = new Random(seed);
    }

    /** The next text: one or a few statements, up to a few hundred characters. */
    String next() {
        StringBuilder b = new StringBuilder();
        int pieces = 1 + random.nextInt(random.nextInt(8) == 0 ? 120 : 30);
        for (int k = 0; k < pieces; k++) {
            b.append(separator());
            piece(b);
        }
        if (random.nextInt(4) == 0) {
            b.append(separator()).append(pick(SEPARATORS));
        }
        return b.toString();
    }

    private void piece(StringBuilder b) {
        int r = random.nextInt(100);
        if (r < 30) {
            b.append(pick(WORDS));
        } else if (r < 42) {
            b.append(pick(CONSTANTS));
        } else if (r < 54) {
            b.append(pick(PUNCTUATION));
        } else if (r < 62) {
            b.append(pick(OPERATORS));
        } else if (r < 66) {
            b.append(pick(QUOTED));
        } else if (r < 68) {
            b.append(pick(ODD));
        } else if (r < 80) {
            list(b);
        } else if (r < 86) {
            rows(b);
        } else if (r < 94) {
            b.append(pick(CLAUSE_WORDS)).append(separator()).append(random.nextBoolean() ? "-" : "+")
                    .append(separator()).append(pick(CONSTANTS));
        } else {
            b.append(pick(WORDS)).append(separator()).append(pick(WORDS)).append(separator()).append(pick(WORDS));
        }
    }

    /** {@code in (c, ...)}, {@code array[c, ...]} or a list that almost is one. */
    private void list(StringBuilder b) {
        String word = pick(LIST_WORDS);
        boolean bracket = word.equalsIgnoreCase("array") ? random.nextInt(5) != 0 : random.nextInt(8) == 0;
        b.append(word).append(separator()).append(bracket ? '[' : '(');
        elements(b);
        if (random.nextInt(10) != 0) {
            b.append(separator()).append(bracket ? ']' : ')');
        }
    }

    /** {@code values (c, ...), (c, ...)} with rows that may break the pattern or end the list early. */
    private void rows(StringBuilder b) {
        b.append(random.nextBoolean() ? "values" : "VALUES").append(separator());
        int rows = 1 + random.nextInt(4);
        for (int k = 0; k < rows; k++) {
            if (k > 0) {
                b.append(separator()).append(random.nextInt(12) == 0 ? "" : ",").append(separator());
            }
            b.append('(');
            elements(b);
            if (random.nextInt(12) != 0) {
                b.append(separator()).append(')');
            }
        }
        if (random.nextInt(5) == 0) {
            b.append(separator()).append(',');
        }
    }

    private void elements(StringBuilder b) {
        int n = random.nextInt(5);
        for (int k = 0; k < n; k++) {
            if (k > 0 && random.nextInt(15) != 0) {
                b.append(separator()).append(',');
            }
            b.append(separator());
            int r = random.nextInt(20);
            if (r < 12) {
                b.append(pick(CONSTANTS));
            } else if (r < 16) {
                b.append(random.nextBoolean() ? '-' : '+').append(separator()).append(pick(CONSTANTS));
            } else if (r < 17) {
                b.append(pick(WORDS));
            } else if (r < 18) {
                list(b);
            } else if (r < 19) {
                b.append(pick(OPERATORS));
            } else {
                b.append(pick(PUNCTUATION));
            }
        }
    }

    private String separator() {
        return random.nextInt(3) == 0 ? pick(SEPARATORS) : " ";
    }

    private String pick(String[] options) {
        return options[random.nextInt(options.length)];
    }
}
