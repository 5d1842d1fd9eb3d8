package io.memogate.proxy.admission;

import io.memogate.broker.gateway.GatewayRejectedException;
import java.util.Locale;

/**
 * The hints of what a waiting or refused statement's client is told. A statement held by the console's
 * PAUSE is not waiting for a busy server, and saying so tells the user that retrying will not help
 * until an admin resumes; the gateways record whether they were paused when they queued or refused it.
 */
final class AdmissionHints {

    static final String PAUSED = "Admission is paused (PAUSE on the admin console); RESUME ends it.";

    private AdmissionHints() {}

    /** For the NOTICE of a statement that has waited {@code admission.waitNotice}. */
    static String queued(boolean paused) {
        return paused ? PAUSED : "The server is busy compiling large statements; this one runs when its turn comes.";
    }

    /** For the 53000 of a statement the gateways refused. */
    static String refused(GatewayRejectedException rejection) {
        String tier = "tiers." + rejection.tier().name().toLowerCase(Locale.ROOT);
        if (rejection.paused()) {
            return switch (rejection.reason()) {
                case QUEUE_FULL -> PAUSED + " Statements queue until then, and " + tier
                        + ".maxQueue of them already wait; retry after RESUME.";
                case TIMEOUT -> PAUSED + " This statement waited " + tier + ".timeout; retry after RESUME.";
            };
        }
        return switch (rejection.reason()) {
            case QUEUE_FULL -> "Too many large statements are waiting; retry later, or raise " + tier + ".maxQueue.";
            case TIMEOUT -> "The server was busy compiling other large statements; retry later, or raise " + tier
                    + ".timeout.";
        };
    }
}
