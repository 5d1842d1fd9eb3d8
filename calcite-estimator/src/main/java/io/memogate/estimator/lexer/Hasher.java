package io.memogate.estimator.lexer;

/**
 * A small streaming 64-bit hash over chars: four chars are packed into one long and mixed with
 * MurmurHash3's 64-bit block step, the length and its finalizer close it. A cache key needs few
 * collisions and speed, not cryptographic strength; packing four chars per multiply chain keeps it at a
 * fraction of FNV-1a's cost per character.
 */
final class Hasher {

    static final long NORMALIZED_SEED = 0x9E3779B97F4A7C15L;
    static final long OVERSIZED_SEED = 0xC2B2AE3D27D4EB4FL;

    private static final long C1 = 0x87C37B91114253D5L;
    private static final long C2 = 0x4CF5AD432745937FL;

    private long h;
    private long block;
    private int inBlock;
    private long length;

    Hasher(long seed) {
        this.h = seed;
    }

    void put(char c) {
        block = (block << 16) | c;
        length++;
        if (++inBlock == 4) {
            h = mix(h, block);
            block = 0;
            inBlock = 0;
        }
    }

    /** Puts {@code s[from, to)} char by char: for texts off the hot path (a normalized text, oversized samples). */
    void put(CharSequence s, int from, int to) {
        for (int p = from; p < to; p++) {
            put(s.charAt(p));
        }
    }

    /**
     * Puts {@code s[from, to)}, with ASCII letters in lower case when asked (as identifiers are folded). This is
     * the fingerprint's hot path: the state lives in locals, whole blocks of four chars are packed and mixed
     * without a per-char test of the block's fill, and callers pass a constant {@code lowerCase} so that the
     * compiled loop does not test it. Gives exactly what {@link #put(char)} char by char gives.
     */
    void put(char[] s, int from, int to, boolean lowerCase) {
        long hash = h;
        long b = block;
        int in = inBlock;
        int p = from;
        for (; in != 0 && p < to; p++) { // complete the block a previous put left open
            b = (b << 16) | fold(s[p], lowerCase);
            if (++in == 4) {
                hash = mix(hash, b);
                b = 0;
                in = 0;
            }
        }
        for (; p + 4 <= to; p += 4) {
            hash = mix(hash, ((long) fold(s[p], lowerCase) << 48) | ((long) fold(s[p + 1], lowerCase) << 32)
                    | ((long) fold(s[p + 2], lowerCase) << 16) | fold(s[p + 3], lowerCase));
        }
        for (; p < to; p++) { // fewer than four left: they open the next block
            b = (b << 16) | fold(s[p], lowerCase);
            in++;
        }
        h = hash;
        block = b;
        inBlock = in;
        length += to - from;
    }

    private static int fold(char c, boolean lowerCase) {
        return lowerCase && c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
    }

    /** The hash of {@code s[0, length)} from {@code seed}: what putting each char and finishing gives. */
    static long hash(long seed, char[] s, int length) {
        Hasher h = new Hasher(seed);
        h.put(s, 0, length, false);
        return h.finish();
    }

    long finish() {
        long x = inBlock > 0 ? mix(h, block) : h;
        x ^= length;
        x ^= x >>> 33;
        x *= 0xFF51AFD7ED558CCDL;
        x ^= x >>> 33;
        x *= 0xC4CEB9FE1A85EC53L;
        x ^= x >>> 33;
        return x;
    }

    private static long mix(long h, long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        k *= C2;
        h ^= k;
        return Long.rotateLeft(h, 27) * 5 + 0x52DCE729L;
    }
}
