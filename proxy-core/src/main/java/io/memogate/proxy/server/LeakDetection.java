package io.memogate.proxy.server;

/**
 * Netty's leak detector samples buffer allocations and records a stack trace for each sample: about 2%
 * of the proxy's CPU under pgbench (bench/log/passthrough.md, "Where Memogate's CPU goes"). Every JVM that runs
 * the proxy for real, `memogate run` and the benchmarks alike, turns it off unless told otherwise, so
 * that a benchmark measures the proxy as it runs in production. Test JVMs do not call this and keep
 * Netty's default sampling.
 */
public final class LeakDetection {

    static final String PROPERTY = "io.netty.leakDetection.level";

    private LeakDetection() {
    }

    /** Before any Netty class reads the setting: the level then stays what -D gave, else "disabled". */
    public static void offUnlessAsked() {
        if (System.getProperty(PROPERTY) == null) {
            System.setProperty(PROPERTY, "disabled");
        }
    }
}
