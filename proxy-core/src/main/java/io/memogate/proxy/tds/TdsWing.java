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
import java.util.ArrayList;
import java.util.List;

/**
 * The TDS wing: SQL Server's Tabular Data Stream on the client leg and on the server leg. Each client is relayed
 * to its listener's default backend (the database is named in LOGIN7, after PRELOGIN already went to a server).
 * Neither leg is encrypted yet: PRELOGIN is rewritten so that both sides agree on no TLS, and a client or server
 * that demands it is refused with a message saying so.
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
        if (setup.listener().tls().isPresent()) {
            problems.add(path + ".tls: the TDS wing does not encrypt yet (TLS inside PRELOGIN is still to come)");
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
        TdsServices services = new TdsServices(backend, setup.admission(), config.limits(), connector, setup.sessions());
        int limit = config.limits().maxMessageBytes();
        return client -> {
            client.pipeline().addLast("framer", TdsPackets.framer());
            client.pipeline().addLast("messages", new ClientMessages(limit));
            client.pipeline().addLast("session", new ClientLegHandler(new TdsSession(client, services)));
        };
    }

    @Override
    public int serverConnectionCount() {
        return connector.openConnections();
    }
}
