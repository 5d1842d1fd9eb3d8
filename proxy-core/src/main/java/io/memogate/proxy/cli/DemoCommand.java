package io.memogate.proxy.cli;

import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.config.AdminConfig;
import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.BackendTlsConfig;
import io.memogate.proxy.config.LimitsConfig;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.TlsMode;
import io.memogate.proxy.embedded.DemoSchema;
import io.memogate.proxy.embedded.EmbeddedPostgres;
import io.memogate.proxy.embedded.EmbeddedPostgresOptions;
import io.memogate.proxy.server.ProxyServer;
import java.io.PrintWriter;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * `memogate demo`: an embedded PostgreSQL 18 with the demo warehouse, and the proxy in front of it,
 * for a first look and side-by-side comparisons. Ctrl-C stops both and removes their files.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = "Start an embedded PostgreSQL 18 with a demo warehouse and the proxy in front of it.")
final class DemoCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--port", defaultValue = "6432", description = "Proxy port (default: ${DEFAULT-VALUE}).")
    int port;

    @Option(names = "--postgres-port", defaultValue = "0",
            description = "Port of the embedded PostgreSQL (default: a free one).")
    int postgresPort;

    @Option(names = "--metrics-port", defaultValue = "" + AdminHttpConfig.DEFAULT_PORT,
            description = "Port of the metrics and health endpoint (default: ${DEFAULT-VALUE}; 0: a free one).")
    int metricsPort;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        out.println("starting PostgreSQL 18 (embedded) ...");
        out.flush();
        EmbeddedPostgres postgres = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder().port(postgresPort).build());
        RunningProxy running;
        try {
            new DemoSchema(postgres).load();
            running = RunningProxy.start(configFor(postgres), new ImmediateAdmission());
        } catch (Exception | Error e) {
            postgres.close();
            throw e;
        }
        ProxyServer proxy = running.server();
        String credentials = DemoSchema.OWNER + ":" + DemoSchema.OWNER_PASSWORD;
        out.println("proxy: postgresql://" + credentials + "@127.0.0.1:" + proxy.port() + "/" + DemoSchema.DATABASE);
        out.println("direct: postgresql://" + credentials + "@" + postgres.host() + ":" + postgres.port() + "/"
                + DemoSchema.DATABASE);
        out.println("metrics: " + running.metrics().metricsUrl().orElseThrow());
        out.println("try: psql postgresql://" + credentials + "@127.0.0.1:" + proxy.port() + "/" + DemoSchema.DATABASE);
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

    private MemogateConfig configFor(EmbeddedPostgres postgres) {
        BackendConfig backend = new BackendConfig("demo", postgres.host(), postgres.port(), List.of(), true,
                BackendTlsConfig.of(TlsMode.DISABLE));
        LimitsConfig limits = new LimitsConfig(LimitsConfig.DEFAULT_MAX_MESSAGE_BYTES, LimitsConfig.DEFAULT_CONNECT_TIMEOUT,
                Duration.ofSeconds(2), LimitsConfig.DEFAULT_MAX_CLIENT_CONNECTIONS);
        return new MemogateConfig(List.of(new ListenerConfig("127.0.0.1", port, Optional.empty())), List.of(backend), limits,
                new AdminConfig(AdminHttpConfig.of("127.0.0.1", metricsPort)));
    }
}
