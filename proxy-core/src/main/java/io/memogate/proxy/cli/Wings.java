package io.memogate.proxy.cli;

import io.memogate.proxy.admission.ServerKind;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.mysql.MySqlServer;
import io.memogate.proxy.mysql.MySqlWing;
import io.memogate.proxy.pg.PgWing;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.session.ProtocolWing;
import io.memogate.proxy.tds.TdsServer;
import io.memogate.proxy.tds.TdsWing;
import java.util.Map;

/**
 * The protocol wings this build of Memogate has, by the {@code protocol} a listener names, and the kind of server
 * each backend is: the one place outside the wings that knows them. A protocol missing here is refused at
 * start, naming the listener.
 */
public final class Wings {

    /** Every wing served: PostgreSQL's, MySQL's (which MariaDB speaks too) and SQL Server's TDS. */
    public static final Map<Protocol, ProtocolWing.Factory> BUILT_IN = Map.of(Protocol.POSTGRESQL, PgWing.FACTORY,
            Protocol.MYSQL, MySqlWing.FACTORY, Protocol.TDS, TdsWing.FACTORY);

    private Wings() {
    }

    /**
     * The kind of server {@code backend} is, by the listeners that reach it: a mysql listener relays to the
     * default backend, which is then a MySQL or MariaDB server, and a tds listener to a SQL Server; every other
     * backend is a PostgreSQL server.
     */
    static ServerKind kindOf(MemogateConfig config, String backend) {
        if (config.servesTds(backend)) {
            return TdsServer.KIND;
        }
        return config.servesMySql(backend) ? MySqlServer.KIND : PostgresServer.KIND;
    }
}
