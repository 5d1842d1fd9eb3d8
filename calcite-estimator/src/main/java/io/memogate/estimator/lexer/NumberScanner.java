package io.memogate.estimator.lexer;

/**
 * Numeric constants as PostgreSQL 16 reads them
 * (<a href="https://www.postgresql.org/docs/current/sql-syntax-lexical.html#SQL-SYNTAX-CONSTANTS-NUMERIC">4.1.2.6</a>):
 * {@code 42}, {@code 3.5}, {@code 4.}, {@code .5}, {@code 1e-3}, {@code 0x1F}, {@code 0o17}, {@code 0b101},
 * {@code 1_000_000}. Each method returns the index just past what it accepted; what does not belong to
 * the number (an exponent without digits, {@code ..} after an integer) is left for the next token.
 */
final class NumberScanner {

    private NumberScanner() {
    }

    /** A number starting with a digit at p. */
    static int number(char[] s, int n, int p) {
        if (s[p] == '0' && p + 2 < n) {
            int radix = switch (s[p + 1]) {
                case 'x', 'X' -> 16;
                case 'o', 'O' -> 8;
                case 'b', 'B' -> 2;
                default -> 0;
            };
            if (radix != 0) {
                int q = radixDigits(s, n, p + 2, radix);
                if (q > p + 2) {
                    return q;
                }
                // "0x" without digits: PostgreSQL rejects it; here it is 0 followed by an identifier.
            }
        }
        int q = decimalInteger(s, n, p);
        if (q < n && s[q] == '.') {
            if (q + 1 < n && s[q + 1] == '.') {
                return q; // 1..10: an integer, then ".." (scan.l's numericfail)
            }
            q++;
            if (q < n && SqlLexer.isDigit(s[q])) {
                q = decimalInteger(s, n, q);
            }
        }
        return exponent(s, n, q);
    }

    /** The digits after a leading point: {@code .5}, {@code .5e3}; p is the first digit. */
    static int fraction(char[] s, int n, int p) {
        return exponent(s, n, decimalInteger(s, n, p));
    }

    /** {@code digit (_? digit)*} starting with a digit at p. */
    static int decimalInteger(char[] s, int n, int p) {
        p++;
        while (p < n) {
            char c = s[p];
            if (SqlLexer.isDigit(c)) {
                p++;
            } else if (c == '_' && p + 1 < n && SqlLexer.isDigit(s[p + 1])) {
                p += 2;
            } else {
                break;
            }
        }
        return p;
    }

    private static int radixDigits(char[] s, int n, int p, int radix) {
        while (p < n) {
            char c = s[p];
            if (Character.digit(c, radix) >= 0 && c < 128) {
                p++;
            } else if (c == '_' && p + 1 < n && s[p + 1] < 128 && Character.digit(s[p + 1], radix) >= 0) {
                p += 2;
            } else {
                break;
            }
        }
        return p;
    }

    private static int exponent(char[] s, int n, int p) {
        if (p < n && (s[p] == 'e' || s[p] == 'E')) {
            int q = p + 1;
            if (q < n && (s[q] == '+' || s[q] == '-')) {
                q++;
            }
            if (q < n && SqlLexer.isDigit(s[q])) {
                return decimalInteger(s, n, q);
            }
        }
        return p;
    }
}
