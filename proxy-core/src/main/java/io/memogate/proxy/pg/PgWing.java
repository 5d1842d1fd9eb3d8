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
import io.memogate.proxy.pg.session.PgShared;
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
 * {@link PgSession}s; what they all share lives here ({@link PgShared}).
 */
public final class PgWing implements ProtocolWing {

    /** Makes the wing for a proxy's PostgreSQL listeners. */
    public static final ProtocolWing.Factory FACTORY = PgWing::new;

    /** One for all listeners, so that its connector counts every server connection. */
    private final PgShared shared;

    private PgWing(WingResources resources) {
        this.shared = new PgShared(new BackendConnector(resources.transport(), BackendConnector.MAX_BACKEND_FRAME_BYTES,
                resources.keepalive()), new CancelForwarder(resources.transport()), new CancelRegistry(),
                resources.recycles(), new PasswordlessLogins());
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
                setup.admission(),
                listener.tls().map(tls -> TlsContexts.forListener(tls, tlsPath)),
                config.limits(),
                setup.console(),
                config.defaultBackend().map(backend -> targets.get(backend.name())),
                config.recycle(),
                shared,
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
        return shared.connector().openConnections();
    }
}
