package io.memogate.proxy.cli;

import io.memogate.broker.gateway.Sizes;
import io.memogate.broker.probe.mysql.MariaDbServer;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.mysql.demo.MariaDbDemoSchema;
import io.memogate.proxy.server.ProxyServer;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Optional;

/**
 * {@code memogate demo --server mariadb}: a private MariaDB from Debian's mariadbd (its own data directory and
 * port, {@code --no-defaults}: never the machine's own server), the demo warehouse in it, and the proxy in front
 * with a {@code mysql} listener, gateways on and the broker polling the server.
 */
final class MariaDbDemo {

    private final int port;
    private final int mariadbPort;
    private final int metricsPort;
    private final Optional<Long> hostMemory;
    private final boolean pruningOff;

    /**
     * @param pruningOff start the server with optimizer_prune_level = 0, as users set it for plan quality: its
     *     join-order search then runs for seconds at 11 tables
     */
    MariaDbDemo(int port, int mariadbPort, int metricsPort, Optional<Long> hostMemory, boolean pruningOff) {
        this.port = port;
        this.mariadbPort = mariadbPort;
        this.metricsPort = metricsPort;
        this.hostMemory = hostMemory;
        this.pruningOff = pruningOff;
    }

    /** Starts the server and the proxy, says where to connect, and runs until the JVM is asked to stop. */
    int run(PrintWriter out) throws Exception {
        out.println("starting MariaDB (" + MariaDbServer.MARIADBD + ", a private instance) and loading the demo warehouse ...");
        out.flush();
        List<String> options = pruningOff ? List.of("--optimizer-prune-level=0") : List.of();
        MariaDbServer server = MariaDbServer.start(mariadbPort, options);
        out.println("MariaDB started on 127.0.0.1:" + server.port() + " (pid " + server.pid() + "); data in "
                + server.directory());
        out.flush();
        RunningProxy running;
        try {
            new MariaDbDemoSchema(server).load();
            running = RunningProxy.start(DemoConfig.mariaDb(server.port(), port, metricsPort, hostMemory));
        } catch (Exception | Error e) {
            closeQuietly(server, e);
            throw e;
        }
        ProxyServer proxy = running.server();
        String login = "-u " + MariaDbDemoSchema.OWNER + " -p" + MariaDbDemoSchema.OWNER_PASSWORD + " "
                + MariaDbDemoSchema.DATABASE;
        out.println("proxy: mariadb -h 127.0.0.1 -P " + proxy.port() + " " + login);
        out.println("jdbc: jdbc:mariadb://127.0.0.1:" + proxy.port() + "/" + MariaDbDemoSchema.DATABASE
                + "?user=" + MariaDbDemoSchema.OWNER + "&password=" + MariaDbDemoSchema.OWNER_PASSWORD);
        out.println("direct: mariadb -h 127.0.0.1 -P " + server.port() + " " + login);
        out.println("metrics: " + running.metrics().metricsUrl().orElseThrow()
                + " (memogate_gateway_*: the tiers; memogate_broker_*: the broker)");
        out.println("admin: mariadb -h 127.0.0.1 -P " + proxy.port() + " -u " + MariaDbDemoSchema.OWNER + " -p"
                + MariaDbDemoSchema.OWNER_PASSWORD + " " + AdminConfig.CONSOLE_DATABASE
                + " (SHOW TIERS, SHOW BROKER, SHOW QUEUE, SHOW HELP, PAUSE, RESUME, ...)");
        out.println("admission: gateways on; compile-memory target from a " + (hostMemory.isEmpty()
                ? "host of this machine's memory" : Sizes.bytes(hostMemory.get()) + " host")
                + ", broker polling the server as " + MariaDbDemoSchema.MONITOR
                + (pruningOff ? "; optimizer_prune_level 0 (exhaustive join-order search)" : ""));
        String pruningOffClient = "mariadb -h 127.0.0.1 -P " + proxy.port() + " " + login
                + " --init-command='SET optimizer_prune_level = 0' < docs/examples/mariadb-star11.sql";
        out.println("try: " + pruningOffClient);
        out.println("storm: for i in $(seq 8); do " + pruningOffClient + " & done; wait");
        out.println("Ctrl-C stops the proxy and the server and removes their files.");
        out.flush();
        RunCommand.awaitTermination(() -> stop(running, server));
        return 0;
    }

    /** The proxy first, so that no client reaches a server going away; then the server and its files. */
    private static void stop(RunningProxy running, MariaDbServer server) {
        try {
            running.close();
        } finally {
            closeQuietly(server, null);
        }
    }

    private static void closeQuietly(MariaDbServer server, Throwable cause) {
        try {
            server.close(); // stops the server and removes its directory
        } catch (IOException | RuntimeException e) {
            if (cause != null) {
                cause.addSuppressed(e);
            } else {
                throw new IllegalStateException("stopping the private MariaDB failed", e);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
