package io.memogate.proxy.admission;

import io.memogate.broker.gateway.CompileMemoryRetention;
import io.memogate.broker.probe.ProbeFactory;
import io.memogate.estimator.dialect.DialectSettings;
import java.util.List;
import java.util.Map;

/**
 * A kind of database server as its admission sees it: how the broker probes it, and how the settings the
 * broker reads from it become the settings a new session's statements are estimated with. One per server
 * kind, beside its wing (PostgreSQL: {@code postgres.PostgresServer}); immutable.
 */
public interface ServerKind {

    /** The kind's name as users know it, for messages ("PostgreSQL"). */
    String name();

    /** What a server connection of this kind still holds once a compile on it is over: the byte budget's rule. */
    CompileMemoryRetention retention();

    /** A new estimator of this kind's statements, with its default coefficients. */
    EstimatorInForce estimator();

    /** Makes the broker's probe of a server of this kind. */
    ProbeFactory probe();

    /** The settings a session starts from before the server has been read: the kind's built-in defaults. */
    DialectSettings builtInDefaults();

    /**
     * The settings a session starts from on a server that reported {@code serverSettings} (name to value, as
     * the broker read them): the built-in defaults with the server's own values over them.
     */
    DialectSettings defaults(Map<String, String> serverSettings);

    /**
     * The tighter settings a statement planned under {@code session} may run under instead of never fitting the
     * compile-memory target, least restrictive first; empty (the default) where the kind degrades nothing.
     */
    default List<Degradation> degradeLadder(DialectSettings session) {
        return List.of();
    }
}
