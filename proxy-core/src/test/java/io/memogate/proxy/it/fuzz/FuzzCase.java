package io.memogate.proxy.it.fuzz;

import java.util.HexFormat;
import java.util.List;
import java.util.Random;

/**
 * One case, everything drawn from its seed: the client's bytes after login, the login (trust or cleartext
 * password), which of the test's two proxies it goes through, and how the bytes are cut into writes.
 * Replayed with {@code -Dfuzz.seed=<seed>}.
 */
final class FuzzCase {

    private final long seed;
    private final byte[] bytes;
    private final CaseGenerator.Script script;
    private final List<String> mutations;
    private final boolean passwordLogin;
    private final boolean readingProxy;
    private final long chunkSeed;

    private FuzzCase(long seed, byte[] bytes, CaseGenerator.Script script, List<String> mutations,
                     boolean passwordLogin, boolean readingProxy, long chunkSeed) {
        this.seed = seed;
        this.bytes = bytes;
        this.script = script;
        this.mutations = mutations;
        this.passwordLogin = passwordLogin;
        this.readingProxy = readingProxy;
        this.chunkSeed = chunkSeed;
    }

    static FuzzCase of(long seed) {
        Random random = new Random(seed);
        CaseGenerator.Script script = CaseGenerator.generate(random);
        Mutator.Mutated mutated = Mutator.mutate(random, script.messages());
        return new FuzzCase(seed, mutated.bytes(), script, mutated.descriptions(), random.nextBoolean(),
                random.nextBoolean(), random.nextLong());
    }

    long seed() {
        return seed;
    }

    byte[] bytes() {
        return bytes.clone();
    }

    /** Logs in as the role pg_hba asks for a cleartext password, else as the trusted one. */
    boolean passwordLogin() {
        return passwordLogin;
    }

    /** Through the proxy whose admission hook reads every statement, else the one that forwards them unread. */
    boolean readingProxy() {
        return readingProxy;
    }

    /** A new generator of the sizes of the writes the bytes are sent in: the same ones in both runs. */
    Random chunks() {
        return new Random(chunkSeed);
    }

    /** What a person needs to replay and read the case. */
    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("seed ").append(seed).append(" (replay: -Dfuzz.seed=").append(seed).append("), ")
                .append(passwordLogin ? "password" : "trust").append(" login, ")
                .append(readingProxy ? "statement-reading" : "relay-only").append(" proxy\n");
        for (int i = 0; i < script.labels().size(); i++) {
            out.append("  ").append(i).append(": ").append(script.labels().get(i)).append('\n');
        }
        out.append("mutations: ").append(mutations.isEmpty() ? "none" : String.join("; ", mutations)).append('\n');
        out.append("bytes (").append(bytes.length).append("): ").append(HexFormat.of().formatHex(bytes));
        return out.toString();
    }
}
