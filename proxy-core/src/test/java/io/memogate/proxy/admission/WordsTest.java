package io.memogate.proxy.admission;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The quick look for a word finds it where {@link String#regionMatches(boolean, int, String, int, int)} would, at
 * any place and in any case, and nowhere else: a statement whose word is missed would not be admitted as it should
 * (an EXECUTE remembered as a bypass, a SET not applied to the session's planner settings).
 */
class WordsTest {

    private static final List<String> WORDS = List.of("execute", "set", "optimizer_", "discard", "kill", "x");

    @Test
    void findsTheWordInAnyCaseAnywhere() {
        assertThat(Words.containsIgnoreCase("EXECUTE s1", "execute")).isTrue();
        assertThat(Words.containsIgnoreCase("select 1; eXeCuTe s1", "execute")).isTrue();
        assertThat(Words.containsIgnoreCase("SELECT abalance FROM pgbench_accounts WHERE aid = 1;", "execute"))
                .isFalse();
        assertThat(Words.containsIgnoreCase("reset all", "set")).isTrue();
        assertThat(Words.containsIgnoreCase("SE", "set")).isFalse();
        assertThat(Words.containsIgnoreCase("", "set")).isFalse();
        assertThat(Words.containsIgnoreCase("sEt", "set")).isTrue();
    }

    /** regionMatches folds the long s, the dotless and dotted i and the Kelvin sign to ASCII letters: so does this. */
    @Test
    void foldsAsRegionMatchesDoes() {
        assertThat(Words.containsIgnoreCase("d\u0130scard all", "discard")).isTrue();
        assertThat(Words.containsIgnoreCase("\u212Aill", "kill")).isFalse(); // the first letter is compared in ASCII
        assertThat(Words.containsIgnoreCase("s\u212Aip", "skip")).isTrue();
    }

    @Test
    void agreesWithRegionMatchesOnRandomTexts() {
        Random random = new Random(7);
        String alphabet = "eExXsSeEtTcCuUdDiIkKoOpP_ \u0130\u0131\u017F\u212A;'1";
        for (int n = 0; n < 200_000; n++) {
            StringBuilder text = new StringBuilder();
            int length = random.nextInt(24);
            for (int i = 0; i < length; i++) {
                text.append(alphabet.charAt(random.nextInt(alphabet.length())));
            }
            String word = WORDS.get(random.nextInt(WORDS.size()));
            if (random.nextInt(4) == 0) { // the word itself, in a random case, somewhere
                StringBuilder cased = new StringBuilder();
                for (char c : word.toCharArray()) {
                    cased.append(random.nextBoolean() ? Character.toUpperCase(c) : c);
                }
                text.insert(random.nextInt(text.length() + 1), cased);
            }
            assertThat(Words.containsIgnoreCase(text.toString(), word)).as("%s in %s", word, text)
                    .isEqualTo(reference(text.toString(), word));
        }
    }

    /** The loop this replaced: the first letter in ASCII, the rest as regionMatches folds it. */
    private static boolean reference(String text, String word) {
        for (int i = 0; i <= text.length() - word.length(); i++) {
            if ((text.charAt(i) | 0x20) == word.charAt(0)
                    && text.regionMatches(true, i + 1, word, 1, word.length() - 1)) {
                return true;
            }
        }
        return false;
    }
}
