package io.memogate.proxy.admission;

import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Tier;
import java.time.Duration;
import java.util.Locale;
import java.util.Optional;

/**
 * A statement admitted under tighter settings than its session's ({@link Degradation}), and why.
 *
 * @param degradation the settings it runs under
 * @param sessionBytes its estimate under the session's own settings
 * @param degradedBytes its estimate under {@code degradation}: what the gateways admitted
 * @param targetBytes the compile-memory target when it was chosen
 * @param waited empty when {@code sessionBytes} can never fit the target; else how long the statement had waited
 *     for {@code waitedFor} before it was degraded
 * @param waitedFor the tier, or the byte budget (empty), the statement waited for under its own settings
 * @param predicted present when it was degraded as it joined its queue, its predicted wait being longer than
 *     admission.degrade.after; empty when it waited that long (or never fit)
 */
public record Degraded(Degradation degradation, long sessionBytes, long degradedBytes, long targetBytes,
                       Optional<Duration> waited, Optional<Tier> waitedFor, Optional<PredictedWait> predicted) {

    /** How {@link #message()} starts: clients that count degraded statements read the settings after it. */
    public static final String MESSAGE_START = "statement planned with ";
    /** What follows the settings in {@link #message()}. */
    public static final String MESSAGE_AFTER_SETTINGS = " instead of ";

    /** Why a statement was degraded: the {@code reason} label of {@code memogate_degraded_total}. */
    public enum Reason {
        /** Its estimate can never fit the compile-memory target. */
        NEVER_FITS,
        /** It waited admission.degrade.after. */
        WAITED,
        /** Its predicted wait was longer than admission.degrade.after. */
        PREDICTED;

        /** The metric label: "never_fits", "waited", "predicted". */
        public String label() {
            return name().toLowerCase(Locale.ROOT);
        }
    }

    /** A statement that can never fit the target. */
    public Degraded(Degradation degradation, long sessionBytes, long degradedBytes, long targetBytes) {
        this(degradation, sessionBytes, degradedBytes, targetBytes, Optional.empty(), Optional.empty(),
                Optional.empty());
    }

    /** A statement that waited {@code waited} for {@code waitedFor}. */
    public Degraded(Degradation degradation, long sessionBytes, long degradedBytes, long targetBytes,
                    Optional<Duration> waited, Optional<Tier> waitedFor) {
        this(degradation, sessionBytes, degradedBytes, targetBytes, waited, waitedFor, Optional.empty());
    }

    public Reason reason() {
        return predicted.isPresent() ? Reason.PREDICTED : waited.isPresent() ? Reason.WAITED : Reason.NEVER_FITS;
    }

    /** What the client's NOTICE says, and the console. */
    public String message() {
        String instead = waited.isEmpty() ? "waiting for a compile-memory target it can never fit"
                : "waiting longer than admission.degrade.after for " + queue();
        return MESSAGE_START + degradation.describe() + MESSAGE_AFTER_SETTINGS + instead;
    }

    /** The figures behind {@link #message()}. */
    public String detail() {
        String why = predicted.map(p -> "; it was degraded on a predicted wait of " + p.seconds() + " ("
                        + p.figures() + "), longer than admission.degrade.after, having waited "
                        + waited.map(PredictedWait::seconds).orElse("0.0 s"))
                .or(() -> waited.map(w -> String.format(Locale.ROOT, "; it had waited %.1f s for %s",
                        w.toNanos() / 1e9, queue())))
                .orElse("");
        return "Estimated planner memory " + Sizes.bytes(sessionBytes) + " under the session's settings, "
                + Sizes.bytes(degradedBytes) + " under these; compile-memory target " + Sizes.bytes(targetBytes)
                + why + ". The session's own settings are unchanged for its later statements.";
    }

    private String queue() {
        return waitedFor.map(t -> "the " + t + " gateway").orElse("the compile-memory budget");
    }
}
