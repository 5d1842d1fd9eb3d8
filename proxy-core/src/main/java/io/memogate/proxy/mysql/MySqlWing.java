package io.memogate.proxy.mysql;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.mysql.codec.ClientPackets;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.codec.SslRequestSplitter;
import io.memogate.proxy.mysql.session.KillTargets;
import io.memogate.proxy.mysql.session.MySqlServices;
import io.memogate.proxy.mysql.session.MySqlSession;
import io.memogate.proxy.mysql.session.MySqlShared;
import io.memogate.proxy.session.ClientLegHandler;
import io.memogate.proxy.session.ListenerSetup;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.session.ServerConnector;
import io.memogate.proxy.session.WingResources;
import io.memogate.proxy.tls.TlsContexts;
import io.netty.handler.ssl.SslContext;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The MySQL wing: the MySQL client/server protocol (which MariaDB speaks too) on the client leg and on the
 * server leg. Each client is relayed to its listener's default backend: the server greets first, before the
 * client names a schema, so routing by schema would need a greeting of the proxy's own (still to come). TLS
 * is terminated on each leg: toward the client with the listener's certificate (offered in the greeting only
 * when the listener has one), toward the server as the backend's tls.mode says; the proxy reads every
 * statement in between.
 */
public final class MySqlWing implements ProtocolWing {

    public static final ProtocolWing.Factory FACTORY = MySqlWing::new;

    private final MySqlShared shared;

    private MySqlWing(WingResources resources) {
        this.shared = new MySqlShared(new ServerConnector(resources.transport(), resources.keepalive(),
                MySqlPackets::framer), new KillTargets());
    }

    @Override
    public Protocol protocol() {
        return Protocol.MYSQL;
    }

    @Override
    public ListenerSessions listener(ListenerSetup setup) {
        MemogateConfig config = setup.config();
        String path = "listeners[" + setup.index() + "]";
        List<String> problems = new ArrayList<>();
        if (setup.listener().unixSocket().isPresent()) {
            problems.add(path + ".host: the MySQL wing listens on TCP only for now");
        }
        BackendConfig backend = config.defaultBackend().orElse(null);
        if (backend == null) {
            problems.add(path + ".protocol: a mysql listener relays to the default backend (routing by schema is "
                    + "still to come), and no backend is the default");
        } else if (backend.unixSocket().isPresent()) {
            problems.add("backend " + backend.name() + ": the MySQL wing reaches its server over TCP only for now "
                    + "(a host name or address)");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(null, problems);
        }
        Optional<SslContext> clientTls = setup.listener().tls()
                .map(tls -> TlsContexts.forMySqlListener(tls, path + ".tls"));
        Optional<SslContext> serverTls = TlsContexts.forBackend(backend.tls(),
                "backends[" + config.backends().indexOf(backend) + "].tls");
        MySqlServices services = new MySqlServices(backend, setup.admission(), config.limits(), shared, setup.sessions(),
                clientTls, serverTls, setup.console());
        int limit = config.limits().maxMessageBytes();
        return client -> {
            clientTls.ifPresent(tls -> client.pipeline().addLast("tls-request", new SslRequestSplitter(tls)));
            client.pipeline().addLast("framer", MySqlPackets.framer(limit));
            client.pipeline().addLast("payloads", new ClientPackets(limit));
            client.pipeline().addLast("session", new ClientLegHandler(new MySqlSession(client, services)));
        };
    }

    @Override
    public int serverConnectionCount() {
        return shared.connector().openConnections();
    }
}
