package io.memogate.proxy.tds;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.session.ClientLegHandler;
import io.memogate.proxy.session.ListenerSetup;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.session.ServerConnector;
import io.memogate.proxy.session.WingResources;
import io.memogate.proxy.tds.codec.ClientMessages;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.session.TdsServices;
import io.memogate.proxy.tds.session.TdsSession;
import io.memogate.proxy.tds.tls.TdsTls;
import io.memogate.proxy.tds.tls.TdsTlsDetector;
import io.memogate.proxy.tls.TlsContexts;
import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The TDS wing: SQL Server's Tabular Data Stream on the client leg and on the server leg. Each client is relayed
 * to its listener's default backend (the database is named in LOGIN7, after PRELOGIN already went to a server).
 * TLS is terminated on each leg, negotiated in PRELOGIN on each on its own: toward the client with the listener's
 * certificate (TDS 7.x inside PRELOGIN packets, or TDS 8.0 first on TCP, told apart by the first byte), toward
 * the server as the backend's tls section says; the proxy reads every statement in between.
 */
public final class TdsWing implements ProtocolWing {

    public static final ProtocolWing.Factory FACTORY = TdsWing::new;

    private final ServerConnector connector;

    private TdsWing(WingResources resources) {
        this.connector = new ServerConnector(resources.transport(), resources.keepalive(), TdsPackets::framer);
    }

    @Override
    public Protocol protocol() {
        return Protocol.TDS;
    }

    @Override
    public ListenerSessions listener(ListenerSetup setup) {
        MemogateConfig config = setup.config();
        String path = "listeners[" + setup.index() + "]";
        List<String> problems = new ArrayList<>();
        if (setup.listener().unixSocket().isPresent()) {
            problems.add(path + ".host: the TDS wing listens on TCP only");
        }
        BackendConfig backend = config.defaultBackend().orElse(null);
        if (backend == null) {
            problems.add(path + ".protocol: a tds listener relays to the default backend, and no backend is the default");
        } else if (backend.unixSocket().isPresent()) {
            problems.add("backend " + backend.name() + ": the TDS wing reaches its server over TCP only");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(null, problems);
        }
        TdsServices services = new TdsServices(backend, setup.admission(), config.limits(), connector, setup.sessions(),
                tls(setup, path, backend, config.backends().indexOf(backend)));
        int limit = config.limits().maxMessageBytes();
        return client -> {
            client.pipeline().addLast("strict-tls", new TdsTlsDetector(services.tls().strictListener()));
            client.pipeline().addLast("framer", TdsPackets.framer());
            client.pipeline().addLast("messages", new ClientMessages(limit));
            client.pipeline().addLast("session", new ClientLegHandler(new TdsSession(client, services)));
        };
    }

    private static TdsTls tls(ListenerSetup setup, String path, BackendConfig backend, int backendIndex) {
        Optional<SslContext> listener = setup.listener().tls()
                .map(tls -> TlsContexts.forTdsListener(tls, path + ".tls", false));
        Optional<SslContext> strictListener = setup.listener().tls()
                .map(tls -> TlsContexts.forTdsListener(tls, path + ".tls", true));
        boolean strict = backend.tls().strict();
        Optional<SslContext> toServer = TlsContexts.forBackend(backend.tls(), "backends[" + backendIndex + "].tls",
                strict ? Optional.of(TlsContexts.TDS8_ALPN_PROTOCOL) : Optional.empty());
        return new TdsTls(listener, strictListener, toServer, backend.tls().mode(), strict, backend.tlsServerName());
    }

    @Override
    public int serverConnectionCount() {
        return connector.openConnections();
    }
}
