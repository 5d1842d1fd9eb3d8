package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.gateway.Tier;
import io.memogate.estimator.CompileEstimate;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What a server's admission decided about one statement, as {@link StatementRecords} keeps it: for tests of
 * the applications in front of the proxy ("does any statement of ours need the LARGE gateway?"), not for
 * operations, which read the meters.
 *
 * @param server the backend whose admission saw it
 * @param database the database the session was connected to
 * @param user the session's user
 * @param estimate what the estimator said: fingerprint, bytes, relations, join pairs (a bypass's names no bytes)
 * @param outcome how admission ended
 * @param highestTier the highest tier it held, or the tier whose queue refused it; empty when no gateway was
 *     involved (bypassed, below t0)
 * @param queuedFor how long it waited in a queue before it was admitted, refused or withdrawn; empty when it
 *     never waited (admitted at once, or refused because the queue was full)
 * @param refusal why it was refused, when it was
 */
public record StatementRecord(String server, String database, String user, CompileEstimate estimate, Outcome outcome,
                              Optional<Tier> highestTier, Optional<Duration> queuedFor, Optional<Refusal> refusal) {

    /** How a statement's admission ended. */
    public enum Outcome {
        /** The server does not plan it, or it names at most one relation: never estimated in bytes. */
        BYPASSED,
        /** Estimated below the gateways' static threshold t0: admitted without a gateway. */
        BELOW_THRESHOLD,
        /** Admitted through one or more gateways, at once or after waiting. */
        ADMITTED,
        /** Refused by a gateway: its queue was full or the statement waited past its timeout. */
        REFUSED,
        /** The client cancelled it while it waited. */
        WITHDRAWN
    }

    /**
     * @param reason queue full or timeout
     * @param message the gateways' own words, as the client's error message carries them
     *     ("LARGE gateway: queue full, waited 0.0 s, estimate 612 MB")
     */
    public record Refusal(GatewayRejectedException.Reason reason, String message) {

        public Refusal {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(message, "message");
        }

        static Refusal of(GatewayRejectedException rejection) {
            return new Refusal(rejection.reason(), rejection.getMessage());
        }
    }

    public StatementRecord {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(estimate, "estimate");
        Objects.requireNonNull(outcome, "outcome");
        Objects.requireNonNull(highestTier, "highestTier");
        Objects.requireNonNull(queuedFor, "queuedFor");
        Objects.requireNonNull(refusal, "refusal");
    }

    public String fingerprint() {
        return estimate.fingerprint();
    }

    public long estimatedBytes() {
        return estimate.estimatedBytes();
    }

    /** True when it waited in a gateway's queue. */
    public boolean waited() {
        return queuedFor.isPresent();
    }

    /**
     * One line a test failure can print: outcome and tier, estimate, wait, refusal and fingerprint (its first
     * 300 characters), e.g. {@code ADMITTED LARGE, 612 MB (16 relations, 262125 join pairs), waited 1.2 s: select ...}.
     */
    public String describe() {
        StringBuilder line = new StringBuilder(outcome.name());
        highestTier.ifPresent(tier -> line.append(' ').append(tier));
        if (outcome != Outcome.BYPASSED) {
            line.append(", ").append(Sizes.bytes(estimate.estimatedBytes())).append(" (")
                    .append(estimate.relations()).append(" relations, ")
                    .append(estimate.memoPairs()).append(" join pairs)");
        }
        queuedFor.ifPresent(wait -> line.append(", waited ").append(Sizes.seconds(wait.toNanos())));
        refusal.ifPresent(why -> line.append(", refused: ").append(why.message()));
        return line.append(": ").append(QueuedStatement.shorten(estimate.fingerprint(), 300)).toString();
    }

    @Override
    public String toString() {
        return describe();
    }
}
