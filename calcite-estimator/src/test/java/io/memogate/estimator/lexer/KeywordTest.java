package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import org.junit.jupiter.api.Test;

class KeywordTest {

    private static Keyword lookup(String word) {
        return Keyword.lookup(word, 0, word.length());
    }

    @Test
    void everyWordIsFoundInAnyCase() {
        for (Keyword k : Keyword.values()) {
            if (k == Keyword.NONE) {
                continue;
            }
            assertThat(lookup(k.word())).isEqualTo(k);
            assertThat(lookup(k.word().toUpperCase(Locale.ROOT))).isEqualTo(k);
            assertThat(Keyword.lookup("x " + k.word() + " y", 2, 2 + k.word().length())).isEqualTo(k);
        }
    }

    @Test
    void otherIdentifiersAreNone() {
        for (String word : new String[] {"selects", "selec", "fromage", "a", "t", "_from", "from_", "fröm", "none",
                "settings", "set_configs", "x1", "customer_id", "ａs", "ŝelect", "SELECT1", "zone1"}) {
            assertThat(lookup(word)).as(word).isEqualTo(Keyword.NONE);
        }
    }
}
