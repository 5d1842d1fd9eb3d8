package io.memogate.proxy.mysql;

import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.mysql.codec.ClientPackets;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.session.ClientHandler;
import io.memogate.proxy.mysql.session.KillTargets;
import io.memogate.proxy.mysql.session.MySqlServices;
import io.memogate.proxy.mysql.session.MySqlSession;
import io.memogate.proxy.mysql.session.MySqlShared;
import io.memogate.proxy.mysql.session.ServerConnector;
import io.memogate.proxy.session.ListenerSetup;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.session.WingResources;
import java.util.ArrayList;
import java.util.List;

/**
 * The MySQL wing: the MySQL client/server protocol (which MariaDB speaks too) on the client leg and on the
 * server leg. Each client is relayed to its listener's default backend: the server greets first, before the
 * client names a schema, so routing by schema would need a greeting of the proxy's own (still to come). TLS
 * is not relayed yet: the capability is cleared from the greeting, and the listener and its backend speak
 * plain TCP.
 */
public final class MySqlWing implements ProtocolWing {

    public static final ProtocolWing.Factory FACTORY = MySqlWing::new;

    private final MySqlShared shared;

    private MySqlWing(WingResources resources) {
        this.shared = new MySqlShared(new ServerConnector(resources.transport(), resources.keepalive()), new KillTargets());
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
        if (setup.listener().tls().isPresent()) {
            problems.add(path + ".tls: the MySQL wing does not relay TLS yet; remove tls from this listener");
        }
        if (setup.listener().unixSocket().isPresent()) {
            problems.add(path + ".host: the MySQL wing listens on TCP only for now");
        }
        BackendConfig backend = config.defaultBackend().orElse(null);
        if (backend == null) {
            problems.add(path + ".protocol: a mysql listener relays to the default backend (routing by schema is "
                    + "still to come), and no backend is the default");
        } else if (backend.tls().mode() != TlsMode.DISABLE && backend.tls().mode() != TlsMode.PREFER
                || backend.unixSocket().isPresent()) {
            problems.add("backend " + backend.name() + ": the MySQL wing reaches its server over plain TCP only for "
                    + "now (tls.mode disable or prefer, a host name or address)");
        }
        if (!problems.isEmpty()) {
            throw new ConfigException(null, problems);
        }
        MySqlServices services = new MySqlServices(backend, setup.admission(), config.limits(), shared, setup.sessions());
        int limit = config.limits().maxMessageBytes();
        return client -> {
            client.pipeline().addLast("framer", MySqlPackets.framer(limit));
            client.pipeline().addLast("payloads", new ClientPackets(limit));
            client.pipeline().addLast("session", new ClientHandler(new MySqlSession(client, services)));
        };
    }

    @Override
    public int serverConnectionCount() {
        return shared.connector().openConnections();
    }
}
