package io.memogate.proxy.it.fuzz;

import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * One case, everything drawn from its seed: the client's bytes after login, the login (trust or cleartext
 * password), which of the test's three proxies it goes through, how the bytes are cut into writes, and the
 * holding proxy's admission decisions. Replayed with {@code -Dfuzz.seed=<seed>}.
 */
final class FuzzCase {

    /** The test's proxies, which differ in their admission hook. */
    enum Proxy {
        /** Admits everything at once without reading it (gateways off). */
        RELAYING("relay-only"),
        /** Reads every statement and admits it at once. */
        READING("statement-reading"),
        /** Reads every statement and mostly admits it a few milliseconds later, from another thread. */
        HOLDING("statement-holding");

        private final String description;

        Proxy(String description) {
            this.description = description;
        }
    }

    private final long seed;
    private final byte[] bytes;
    private final CaseGenerator.Script script;
    private final List<String> mutations;
    private final boolean passwordLogin;
    private final Proxy proxy;
    private final long chunkSeed;
    private final long admissionSeed;

    private FuzzCase(long seed, byte[] bytes, CaseGenerator.Script script, List<String> mutations,
                     boolean passwordLogin, Proxy proxy, long chunkSeed, long admissionSeed) {
        this.seed = seed;
        this.bytes = bytes;
        this.script = script;
        this.mutations = mutations;
        this.passwordLogin = passwordLogin;
        this.proxy = proxy;
        this.chunkSeed = chunkSeed;
        this.admissionSeed = admissionSeed;
    }

    static FuzzCase of(long seed) {
        Random random = new Random(seed);
        CaseGenerator.Script script = CaseGenerator.generate(random);
        Mutator.Mutated mutated = Mutator.mutate(random, script.messages());
        boolean passwordLogin = random.nextBoolean();
        Proxy proxy = random.nextBoolean() ? Proxy.READING : Proxy.RELAYING;
        long chunkSeed = random.nextLong();
        // Drawn after the rest, so a case that does not hold is the one the seed meant before the holding proxy.
        if (random.nextInt(3) == 0) {
            proxy = Proxy.HOLDING;
        }
        return new FuzzCase(seed, mutated.bytes(), script, mutated.descriptions(), passwordLogin, proxy, chunkSeed,
                random.nextLong());
    }

    /** This case through another proxy ({@code -Dfuzz.proxy}). */
    FuzzCase through(Proxy other) {
        return new FuzzCase(seed, bytes, script, mutations, passwordLogin, other, chunkSeed, admissionSeed);
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

    Proxy proxy() {
        return proxy;
    }

    /** The seed of the holding proxy's decisions ({@link HoldingAdmission#newCase}). */
    long admissionSeed() {
        return admissionSeed;
    }

    /** A new generator of the sizes of the writes the bytes are sent in: the same ones in both runs. */
    Random chunks() {
        return new Random(chunkSeed);
    }

    /** What a person needs to replay and read the case. */
    String describe() {
        StringBuilder out = new StringBuilder();
        out.append("seed ").append(seed).append(" (replay: -Dfuzz.seed=").append(seed).append(" -Dfuzz.proxy=")
                .append(proxy.name().toLowerCase(Locale.ROOT)).append("), ")
                .append(passwordLogin ? "password" : "trust").append(" login, ")
                .append(proxy.description).append(" proxy\n");
        for (int i = 0; i < script.labels().size(); i++) {
            out.append("  ").append(i).append(": ").append(script.labels().get(i)).append('\n');
        }
        out.append("mutations: ").append(mutations.isEmpty() ? "none" : String.join("; ", mutations)).append('\n');
        out.append("bytes (").append(bytes.length).append("): ").append(HexFormat.of().formatHex(bytes));
        return out.toString();
    }
}
