package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Sizes;

/**
 * A statement admitted under tighter settings than its session's ({@link Degradation}), and why.
 *
 * @param degradation the settings it runs under
 * @param sessionBytes its estimate under the session's own settings
 * @param degradedBytes its estimate under {@code degradation}: what the gateways admitted
 * @param targetBytes the compile-memory target that {@code sessionBytes} exceeded
 */
public record Degraded(Degradation degradation, long sessionBytes, long degradedBytes, long targetBytes) {

    /** What the client's NOTICE says, and the console. */
    public String message() {
        return "statement planned with " + degradation.describe() + " instead of waiting for a compile-memory "
                + "target it can never fit";
    }

    /** The figures behind {@link #message()}. */
    public String detail() {
        return "Estimated planner memory " + Sizes.bytes(sessionBytes) + " under the session's settings, "
                + Sizes.bytes(degradedBytes) + " under these; compile-memory target " + Sizes.bytes(targetBytes)
                + ". The session's own settings are unchanged for its later statements.";
    }
}
