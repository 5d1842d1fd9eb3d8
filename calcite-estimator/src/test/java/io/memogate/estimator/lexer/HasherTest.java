package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The hasher's array put packs whole blocks of four chars at once; it must give exactly what putting the
 * same chars one by one gives, wherever a put starts or ends within a block, or every cache key changes.
 */
class HasherTest {

    @Test
    void arrayPutsGiveWhatCharPutsGive() {
        Random random = new Random(7);
        for (int round = 0; round < 2_000; round++) {
            char[] text = new char[random.nextInt(40)];
            for (int p = 0; p < text.length; p++) {
                text[p] = (char) (random.nextBoolean() ? 'A' + random.nextInt(58) : random.nextInt(0x3000));
            }
            boolean lowerCase = random.nextBoolean();
            Hasher byChar = new Hasher(Hasher.NORMALIZED_SEED);
            Hasher byArray = new Hasher(Hasher.NORMALIZED_SEED);
            int p = 0;
            while (p < text.length) {
                int end = p + 1 + random.nextInt(Math.min(9, text.length - p)); // pieces of 1 to 9 chars
                byArray.put(text, p, end, lowerCase);
                for (; p < end; p++) {
                    byChar.put(lowerCase ? Keyword.lower(text[p]) : text[p]);
                }
            }
            assertThat(byArray.finish()).as("round %d", round).isEqualTo(byChar.finish());
        }
    }

    @Test
    void hashOfAnArrayIsTheFingerprintHashOfItsText() {
        char[] text = "select a, b from t where c = ?".toCharArray();
        assertThat(Hasher.hash(Hasher.NORMALIZED_SEED, text, text.length))
                .isEqualTo(Fingerprint.hashOf(new String(text)));
        assertThat(Hasher.hash(Hasher.NORMALIZED_SEED, text, 6)).isEqualTo(Fingerprint.hashOf("select"));
    }
}
