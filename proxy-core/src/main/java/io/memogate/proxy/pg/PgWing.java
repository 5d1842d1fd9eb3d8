package io.memogate.proxy.pg;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.pg.codec.PgFrameDecoders;
import io.memogate.proxy.pg.session.BackendConnector;
import io.memogate.proxy.pg.session.BackendTarget;
import io.memogate.proxy.pg.session.CancelForwarder;
import io.memogate.proxy.pg.session.CancelRegistry;
import io.memogate.proxy.pg.session.ClientHandler;
import io.memogate.proxy.pg.session.PasswordlessLogins;
import io.memogate.proxy.pg.session.PgSession;
import io.memogate.proxy.pg.session.SessionServices;
import io.memogate.proxy.session.ListenerSetup;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.session.WingResources;
import io.memogate.proxy.tls.DirectTlsDetector;
import io.memogate.proxy.tls.TlsContexts;
import java.util.HashMap;
import java.util.Map;

/**
 * PostgreSQL's wing: protocol 3.0 on the client leg and on the server leg. Its listeners' sessions are
 * {@link PgSession}s; what they all share lives here: the connector that opens (and counts) server
 * connections, the cancel keys handed to clients and where cancel requests go, and the roles servers let in
 * without a password (warned about once).
 */
public final class PgWing implements ProtocolWing {

    /** Makes the wing for a proxy's PostgreSQL listeners. */
    public static final ProtocolWing.Factory FACTORY = PgWing::new;

    private final WingResources resources;
    /** One for all listeners, so that it counts every server connection. */
    private final BackendConnector connector;
    private final CancelForwarder cancelForwarder;
    private final CancelRegistry cancels = new CancelRegistry();
    private final PasswordlessLogins passwordlessLogins = new PasswordlessLogins();

    private PgWing(WingResources resources) {
        this.resources = resources;
        this.connector = new BackendConnector(resources.transport(), BackendConnector.MAX_BACKEND_FRAME_BYTES,
                resources.keepalive());
        this.cancelForwarder = new CancelForwarder(resources.transport());
    }

    @Override
    public Protocol protocol() {
        return Protocol.POSTGRESQL;
    }

    @Override
    public ListenerSessions listener(ListenerSetup setup) {
        MemogateConfig config = setup.config();
        Map<String, BackendTarget> targets = targetsOf(config);
        ListenerConfig listener = setup.listener();
        String tlsPath = "listeners[" + setup.index() + "].tls";
        SessionServices services = new SessionServices(
                database -> config.backendFor(database).map(backend -> targets.get(backend.name())),
                connector,
                cancelForwarder,
                setup.admission(),
                cancels,
                listener.tls().map(tls -> TlsContexts.forListener(tls, tlsPath)),
                config.limits().maxMessageBytes(),
                config.limits().maxClientConnections(),
                config.limits().connectTimeout(),
                config.limits().loginTimeout(),
                setup.console(),
                config.defaultBackend().map(backend -> targets.get(backend.name())),
                config.recycle(),
                resources.recycles(),
                passwordlessLogins,
                setup.sessions());
        return client -> {
            client.pipeline().addLast("direct-tls", new DirectTlsDetector(services.listenerTls()));
            client.pipeline().addLast("framer", PgFrameDecoders.startup());
            client.pipeline().addLast("session", new ClientHandler(new PgSession(client, services)));
        };
    }

    /** Each backend as sessions connect to it, its TLS context built once here. */
    private static Map<String, BackendTarget> targetsOf(MemogateConfig config) {
        Map<String, BackendTarget> targets = new HashMap<>();
        for (int i = 0; i < config.backends().size(); i++) {
            BackendConfig backend = config.backends().get(i);
            String path = "backends[" + i + "]";
            targets.put(backend.name(), new BackendTarget(backend.name(), path, backend.host(), backend.port(),
                    backend.unixSocket(), backend.tls().mode(), TlsContexts.forBackend(backend.tls(), path + ".tls"),
                    backend.tls().serverName().orElse(backend.host())));
        }
        return Map.copyOf(targets);
    }

    @Override
    public int serverConnectionCount() {
        return connector.openConnections();
    }
}
