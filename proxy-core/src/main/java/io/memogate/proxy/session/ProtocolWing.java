package io.memogate.proxy.session;

import io.memogate.proxy.config.Protocol;
import io.netty.channel.Channel;

/**
 * One wire protocol's side of the proxy (PostgreSQL's today): it frames the protocol's messages, relays its
 * startup and authentication, finds its admission points and release signals, refuses in its own words,
 * and cancels its own way. The server hands it each client connection accepted on a listener of its
 * protocol. One instance serves every listener of its protocol and keeps what they share (its server
 * connections, cancel keys).
 */
public interface ProtocolWing {

    Protocol protocol();

    /**
     * What the sessions of one listener share, built from the configuration {@code setup} carries: at start,
     * and again by each reload for the sessions accepted after it (open sessions keep theirs). Everything is
     * built before anything is swapped, so a failure changes nothing.
     *
     * @throws io.memogate.proxy.config.ConfigException when a file the listener or a backend names (a TLS
     *     certificate or key) cannot be loaded
     */
    ListenerSessions listener(ListenerSetup setup);

    /** Connections to database servers this wing's sessions hold now, including any still negotiating. */
    int serverConnectionCount();

    /** Sets up the sessions of one listener's client connections. */
    @FunctionalInterface
    interface ListenerSessions {

        /** Adds the wing's handlers to a client connection just accepted (AUTO_READ off). */
        void initClient(Channel client);
    }

    /** Makes a wing, once per proxy, with the sockets and counts the server owns. */
    @FunctionalInterface
    interface Factory {

        ProtocolWing create(WingResources resources);
    }
}
