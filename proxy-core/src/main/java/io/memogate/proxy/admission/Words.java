package io.memogate.proxy.admission;

/** A quick look for a keyword in a statement text, before (or instead of) lexing it. */
public final class Words {

    private Words() {
    }

    /**
     * Whether {@code text} holds {@code word} (ASCII, in lower case, starting with a letter) in any case, as
     * {@link String#regionMatches(boolean, int, String, int, int)} compares.
     *
     * <p>Every simple Query a gated session sends is looked at this way several times, so the places where the word
     * may start are found with {@link String#indexOf(int, int)}, which the JIT compiles to a vector search, once for
     * each case of its first letter, instead of a char-by-char loop; and the second letter is compared before the
     * rest, where no other character folds to it (regionMatches also folds the dotless i, the long s and the Kelvin
     * sign to ASCII letters), as most places that start with the first letter do not go on with the second.
     */
    public static boolean containsIgnoreCase(String text, String word) {
        int last = text.length() - word.length();
        if (last < 0) {
            return false;
        }
        char lower = word.charAt(0);
        char upper = (char) (lower & ~0x20);
        char second = word.length() > 1 ? word.charAt(1) : 0;
        boolean bySecond = second >= 'a' && second <= 'z' && second != 'i' && second != 'k' && second != 's';
        int nextLower = text.indexOf(lower);
        int nextUpper = text.indexOf(upper);
        while (true) {
            int i;
            if (nextLower >= 0 && (nextUpper < 0 || nextLower < nextUpper)) {
                i = nextLower;
                nextLower = i < last ? text.indexOf(lower, i + 1) : -1;
            } else if (nextUpper >= 0) {
                i = nextUpper;
                nextUpper = i < last ? text.indexOf(upper, i + 1) : -1;
            } else {
                return false;
            }
            if (i > last) {
                return false;
            }
            if ((!bySecond || (text.charAt(i + 1) | 0x20) == second) && restMatches(text, i, word)) {
                return true;
            }
        }
    }

    /** Whether {@code word}, whose first letter is at {@code i}, goes on there (in any case). */
    public static boolean restMatches(String text, int i, String word) {
        return text.regionMatches(true, i + 1, word, 1, word.length() - 1);
    }
}
