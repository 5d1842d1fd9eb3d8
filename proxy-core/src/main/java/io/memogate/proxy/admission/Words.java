package io.memogate.proxy.admission;

/** A quick look for a keyword in a statement text, before (or instead of) lexing it. */
public final class Words {

    private Words() {
    }

    /** Whether {@code text} holds {@code word} (ASCII letters, in lower case) in any case. */
    public static boolean containsIgnoreCase(String text, String word) {
        char first = word.charAt(0);
        int last = text.length() - word.length();
        for (int i = 0; i <= last; i++) {
            if ((text.charAt(i) | 0x20) == first && restMatches(text, i, word)) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code word}, whose first letter is at {@code i}, goes on there (in any case). */
    public static boolean restMatches(String text, int i, String word) {
        return text.regionMatches(true, i + 1, word, 1, word.length() - 1);
    }
}
