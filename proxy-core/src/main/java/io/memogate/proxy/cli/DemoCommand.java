package io.memogate.proxy.cli;

import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.postgres.embedded.DemoSchema;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgres;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresOptions;
import io.memogate.proxy.server.ListenException.Endpoint;
import io.memogate.proxy.server.ProxyServer;
import io.memogate.proxy.server.ServerSockets;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * `memogate demo`: an embedded PostgreSQL 18 with the demo warehouse, and the proxy in front of it,
 * for a first look and side-by-side comparisons; with {@code --server mariadb} a private MariaDB instead
 * ({@link MariaDbDemo}). Ctrl-C stops both and removes their files.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start an embedded PostgreSQL 18 (or, with --server mariadb, a private MariaDB) with a demo "
                + "warehouse and the proxy in front of it.")
final class DemoCommand implements Callable<Integer>, StartupFailures.Settings {

    /** The demo listens on the loopback only. */
    private static final String LOCALHOST = DemoConfig.LOCALHOST;

    @Spec
    CommandSpec spec;

    @Option(names = "--server", defaultValue = "postgresql", paramLabel = "postgresql|mariadb",
            description = "postgresql: PostgreSQL 18 from Maven Central; mariadb: Debian's mariadbd as a private "
                    + "instance (own data directory and port, --no-defaults) and a mysql listener (default: ${DEFAULT-VALUE}).")
    Server server;

    enum Server { POSTGRESQL, MARIADB }

    @Option(names = "--mariadb-port", defaultValue = "0",
            description = "With --server mariadb: port of the private MariaDB (default: a free one).")
    int mariadbPort;

    @Option(names = "--port", defaultValue = "6432", description = "Proxy port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--postgres-port", defaultValue = "0",
            description = "Port of the embedded PostgreSQL (default: a free one).")
    int postgresPort;

    @Option(names = "--host-memory", paramLabel = "SIZE", converter = ByteSizeConverter.class,
            description = "Make the broker assume a database host of this much memory, e.g. 3GiB, so the protection "
                    + "can be seen on a large machine (default: this machine's memory).")
    Long hostMemory;

    @Option(names = "--planner", defaultValue = "default", paramLabel = "default|wide",
            description = "wide: start PostgreSQL with join_collapse_limit = from_collapse_limit = geqo_threshold = 20, "
                    + "as BI users tune it, so large joins plan exhaustively with hundreds of MB; MariaDB with "
                    + "optimizer_prune_level = 0, so joins of 11 tables search for seconds (default: ${DEFAULT-VALUE}).")
    Planner planner;

    enum Planner { DEFAULT, WIDE }

    @Option(names = "--metrics-port", defaultValue = "" + AdminHttpConfig.DEFAULT_PORT,
            description = "Port of the metrics and health endpoint (default: ${DEFAULT-VALUE}; 0: a free one).")
    int metricsPort;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        // Before the slow part: a taken port should not cost a PostgreSQL start and a schema load first.
        ServerSockets.checkFree(Endpoint.CLIENTS, "listeners[0]", LOCALHOST, port);
        ServerSockets.checkFree(Endpoint.ADMIN_HTTP, "admin.http", LOCALHOST, metricsPort);
        if (server == Server.MARIADB) {
            String missing = MariaDbServer.missing();
            if (!missing.isEmpty()) {
                throw new ParameterException(spec.commandLine(), "--server mariadb needs MariaDB's server: " + missing);
            }
            return new MariaDbDemo(port, mariadbPort, metricsPort, Optional.ofNullable(hostMemory),
                    planner == Planner.WIDE).run(out);
        }
        out.println("starting PostgreSQL 18 (embedded) ...");
        out.flush();
        EmbeddedPostgresOptions.Builder options = EmbeddedPostgresOptions.builder().port(postgresPort);
        if (planner == Planner.WIDE) {
            for (String setting : List.of("join_collapse_limit", "from_collapse_limit", "geqo_threshold")) {
                options.setting(setting, "20");
            }
        }
        EmbeddedPostgres postgres = EmbeddedPostgres.start(options.build());
        RunningProxy running;
        try {
            new DemoSchema(postgres).load();
            running = RunningProxy.start(configFor(postgres));
        } catch (Exception | Error e) {
            try {
                postgres.close(); // stops the server and removes its directory
            } catch (RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
        ProxyServer proxy = running.server();
        String credentials = DemoSchema.OWNER + ":" + DemoSchema.OWNER_PASSWORD;
        out.println("proxy: postgresql://" + credentials + "@127.0.0.1:" + proxy.port() + "/" + DemoSchema.DATABASE);
        out.println("direct: postgresql://" + credentials + "@" + postgres.host() + ":" + postgres.port() + "/"
                + DemoSchema.DATABASE);
        out.println("metrics: " + running.metrics().metricsUrl().orElseThrow());
        out.println("admin: postgresql://" + credentials + "@127.0.0.1:" + proxy.port() + "/"
                + AdminConfig.CONSOLE_DATABASE + " (SHOW TIERS, SHOW QUEUE, SHOW HELP, PAUSE, RESUME, ...)");
        out.println("admission: gateways on; compile-memory target from a " + (hostMemory == null
                ? "host of this machine's memory" : Sizes.bytes(hostMemory) + " host") + ", broker polling the server as "
                + DemoSchema.MONITOR + (planner == Planner.WIDE ? "; planner settings wide (collapse limits and geqo_threshold 20)" : ""));
        String proxyUrl = "postgresql://" + credentials + "@127.0.0.1:" + proxy.port() + "/" + DemoSchema.DATABASE;
        out.println("try: psql " + proxyUrl);
        out.println("storm: for i in $(seq 8); do psql " + proxyUrl + " -f docs/examples/star16.sql & done; wait");
        out.println("Ctrl-C stops the proxy and the server and removes their files.");
        out.flush();
        RunCommand.awaitTermination(() -> {
            try {
                running.close();
            } finally {
                postgres.close();
            }
        });
        return 0;
    }

    /** The fields of the configuration {@link #configFor} builds that an option sets. */
    @Override
    public String howToChange(String field) {
        return switch (field) {
            case "listeners[0].port" -> "choose another --port";
            case "admin.http.port" -> "choose another --metrics-port, or 0 for a free one";
            case StartupFailures.EMBEDDED_PORT -> "choose another --postgres-port, or leave it out for a free one";
            default -> "change " + field;
        };
    }

    private MemogateConfig configFor(EmbeddedPostgres postgres) {
        return DemoConfig.of(postgres.host(), postgres.port(), port, metricsPort, Optional.ofNullable(hostMemory));
    }

}
