package io.memogate.proxy.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import io.memogate.broker.Broker;
import io.memogate.broker.BrokerSettings;
import io.memogate.broker.gateway.GatewaySettings;
import io.memogate.broker.gateway.Gateways;
import io.memogate.broker.gateway.LocalGateways;
import io.memogate.broker.gateway.ScheduledGatewayTimer;
import io.memogate.broker.probe.ProbeException;
import io.memogate.estimator.CompileEstimator;
import io.memogate.proxy.admission.AdmissionRouting;
import io.memogate.proxy.admission.DegradeCounts;
import io.memogate.proxy.admission.ImmediateAdmission;
import io.memogate.proxy.cli.Wings;
import io.memogate.proxy.config.BackendConfig;
import io.memogate.proxy.config.ConfigLoader;
import io.memogate.proxy.config.ListenerConfig;
import io.memogate.proxy.config.MemogateConfig;
import io.memogate.proxy.config.Protocol;
import io.memogate.proxy.metrics.BrokerMeters;
import io.memogate.proxy.metrics.DegradeMeters;
import io.memogate.proxy.metrics.EstimatorMeters;
import io.memogate.proxy.metrics.EventLoopMeters;
import io.memogate.proxy.metrics.FleetMeters;
import io.memogate.proxy.metrics.GatewayMeters;
import io.memogate.proxy.metrics.PrometheusText;
import io.memogate.proxy.metrics.ProxyMeters;
import io.memogate.proxy.metrics.ServerGatewayMeters;
import io.memogate.proxy.postgres.PostgresServer;
import io.memogate.proxy.server.ProxyServer;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The deployment files at the repository's root agree with each other and with the proxy: docker-compose.yml
 * publishes the ports the proxy's configuration listens on, Prometheus scrapes the port and path the proxy
 * serves, Grafana's dashboard queries only meters the proxy exports through the provisioned data source,
 * the proxy's configuration for compose is valid, and docs/docker.md says what compose does. No Docker needed.
 */
class DeploymentFilesTest {

    /** The tests run in proxy-core; the deployment files are one level up. */
    private static final Path ROOT = Path.of("..").toAbsolutePath().normalize();
    private static final Pattern METRIC = Pattern.compile("memogate_[a-z_]+");

    private final YAMLMapper yaml = new YAMLMapper();

    private JsonNode yaml(String path) throws IOException {
        return yaml.readTree(Files.readString(ROOT.resolve(path)));
    }

    private MemogateConfig proxyConfig() {
        return new ConfigLoader().load(ROOT.resolve("deploy/memogate/memogate.yaml"));
    }

    @Test
    void composePublishesWhatTheProxyListensOnAndMountsItsConfiguration() throws IOException {
        MemogateConfig config = proxyConfig();
        JsonNode memogate = yaml("docker-compose.yml").path("services").path("memogate");

        Set<Integer> published = new TreeSet<>();
        for (JsonNode port : memogate.path("ports")) {
            String[] parts = port.asText().split(":");
            published.add(Integer.parseInt(parts[parts.length - 1]));
        }
        assertThat(published).containsExactlyInAnyOrder(config.listeners().getFirst().port(),
                config.admin().http().port());
        assertThat(config.listeners().getFirst().host()).as("reachable from outside the container").isEqualTo("0.0.0.0");
        assertThat(config.admin().http().host()).as("Prometheus scrapes it over the compose network").isEqualTo("0.0.0.0");

        List<String> command = strings(memogate.path("command"));
        String configPath = command.get(command.indexOf("--config") + 1);
        assertThat(strings(memogate.path("volumes"))).contains("./deploy/memogate:/etc/memogate:ro");
        assertThat(configPath).isEqualTo("/etc/memogate/memogate.yaml");
        assertThat(config.backends()).extracting(BackendConfig::host).containsExactly("postgres");
        assertThat(yaml("docker-compose.yml").path("services").has("postgres")).isTrue();
        assertThat(yaml("docker-compose.yml").path("services").path("postgres").path("image").asText())
                .isEqualTo("postgres:18");

        String dockerfile = Files.readString(ROOT.resolve("Dockerfile"));
        assertThat(dockerfile).contains("COPY deploy/memogate/memogate.yaml " + configPath)
                .contains("EXPOSE " + config.listeners().getFirst().port() + " " + config.admin().http().port())
                .contains("CMD [\"run\", \"--config\", \"" + configPath + "\"]");
    }

    /** Each profile's proxy: the image built for the default one, its own configuration, in front of its server. */
    @ParameterizedTest
    @CsvSource({"mariadb, memogate-mariadb, MYSQL, 9931", "sqlserver, memogate-sqlserver, TDS, 9932"})
    void eachProfilesProxyListensWithItsServersProtocolInFrontOfIt(String profile, String service, Protocol protocol,
                                                                  int metricsPort) throws IOException {
        JsonNode services = yaml("docker-compose.yml").path("services");
        JsonNode memogate = services.path(service);
        MemogateConfig config = new ConfigLoader().load(ROOT.resolve("deploy/" + service + "/memogate.yaml"));

        assertThat(strings(memogate.path("profiles"))).containsExactly(profile);
        assertThat(strings(services.path(profile).path("profiles"))).containsExactly(profile);
        assertThat(memogate.path("image").asText()).isEqualTo(services.path("memogate").path("image").asText());
        assertThat(strings(memogate.path("volumes"))).containsExactly("./deploy/" + service + ":/etc/memogate:ro");
        assertThat(config.listeners()).singleElement().satisfies(listener -> {
            assertThat(listener.protocol()).isEqualTo(protocol);
            assertThat(listener.host()).isEqualTo("0.0.0.0");
        });
        assertThat(config.backends()).extracting(BackendConfig::host).containsExactly(profile);
        assertThat(strings(memogate.path("ports"))).containsExactly(
                config.listeners().getFirst().port() + ":" + config.listeners().getFirst().port(),
                "127.0.0.1:" + metricsPort + ":" + config.admin().http().port());
    }

    @Test
    void prometheusScrapesTheProxysMetricsEndpoint() throws IOException {
        MemogateConfig config = proxyConfig();
        JsonNode job = yaml("deploy/prometheus/prometheus.yml").path("scrape_configs").get(0);

        assertThat(job.path("metrics_path").asText()).isEqualTo("/metrics");
        assertThat(strings(job.path("static_configs").get(0).path("targets")))
                .containsExactly("memogate:" + config.admin().http().port());
        assertThat(strings(yaml("docker-compose.yml").path("services").path("prometheus").path("volumes")))
                .contains("./deploy/prometheus/prometheus.yml:/etc/prometheus/prometheus.yml:ro");
    }

    @Test
    void grafanaIsProvisionedWithTheDataSourceAndDashboardItsPanelsUse() throws IOException {
        JsonNode grafana = yaml("docker-compose.yml").path("services").path("grafana");
        List<String> volumes = strings(grafana.path("volumes"));
        assertThat(volumes).contains("./deploy/grafana/provisioning:/etc/grafana/provisioning:ro",
                "./deploy/grafana/dashboards:/var/lib/grafana/dashboards:ro");
        JsonNode source = yaml("deploy/grafana/provisioning/datasources/prometheus.yml").path("datasources").get(0);
        assertThat(source.path("url").asText()).isEqualTo("http://prometheus:9090");
        assertThat(yaml("deploy/grafana/provisioning/dashboards/memogate.yml").path("providers").get(0)
                .path("options").path("path").asText()).isEqualTo("/var/lib/grafana/dashboards");

        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("deploy/grafana/dashboards/memogate.json").toFile());
        for (JsonNode panel : dashboard.path("panels")) {
            if (!panel.path("type").asText().equals("row")) {
                assertThat(panel.path("datasource").path("uid").asText()).as(panel.path("title").asText())
                        .isEqualTo(source.path("uid").asText());
                assertThat(panel.path("targets")).as(panel.path("title").asText()).isNotEmpty();
            }
        }
    }

    @Test
    void theDashboardAndTheReadmeNameOnlyMetersTheProxyExports() throws Exception {
        Set<String> exported = exportedSamples();
        JsonNode dashboard = new ObjectMapper().readTree(ROOT.resolve("deploy/grafana/dashboards/memogate.json").toFile());
        Set<String> queried = new TreeSet<>();
        for (JsonNode panel : dashboard.path("panels")) {
            for (JsonNode target : panel.path("targets")) {
                queried.addAll(metrics(target.path("expr").asText()));
            }
        }
        assertThat(queried).as("what the dashboard queries").isNotEmpty()
                .contains("memogate_gateway_active", "memogate_gateway_waiting", "memogate_gateway_wait_seconds_bucket",
                        "memogate_estimate_bytes_bucket", "memogate_broker_target_bytes");
        assertThat(exported).containsAll(queried);

        Set<String> documented = new TreeSet<>();
        for (String line : Files.readAllLines(ROOT.resolve("docs/operations.md"))) {
            if (line.startsWith("| `memogate_")) {
                documented.addAll(metrics(line));
            }
        }
        assertThat(documented).as("the table of meters in docs/operations.md").isNotEmpty();
        assertThat(exported).containsAll(documented);
    }

    @Test
    void theDockerPageSaysWhatComposeStartsAndWhere() throws IOException {
        String page = Files.readString(ROOT.resolve("docs/docker.md"));
        JsonNode services = yaml("docker-compose.yml").path("services");
        assertThat(page).contains("docker compose up");
        for (String service : List.of("memogate", "postgres", "prometheus", "grafana", "mariadb", "memogate-mariadb",
                "sqlserver", "memogate-sqlserver")) {
            assertThat(services.has(service)).as(service).isTrue();
            for (JsonNode port : services.path(service).path("ports")) {
                String[] parts = port.asText().split(":");
                assertThat(page).as("docs/docker.md names %s's port %s", service, port.asText())
                        .contains("127.0.0.1:" + parts[parts.length - 2]);
            }
        }
    }

    /**
     * Every sample name the proxy's own meter binders export, rendered as Prometheus scrapes them, and the
     * family names of histograms.
     */
    private static Set<String> exportedSamples() throws Exception {
        PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
        GatewayMeters gatewayMeters = new GatewayMeters();
        try (ScheduledGatewayTimer timer = new ScheduledGatewayTimer();
                Broker broker = new Broker(BrokerSettings.builder("jdbc:postgresql://db/postgres", "m", "p").build(),
                        () -> {
                            throw new ProbeException("not polled in this test");
                        }, System::nanoTime, state -> { });
                ProxyServer server = ProxyServer.start(MemogateConfig.of(BackendConfig.of("main", "127.0.0.1", 5432))
                        .withListeners(ListenerConfig.of("127.0.0.1", 0)), Wings.BUILT_IN,
                        AdmissionRouting.uniform(new ImmediateAdmission(), PostgresServer.defaultSupport()))) {
            Gateways gateways = new LocalGateways(GatewaySettings.defaults(2), 1L << 30, System::nanoTime, timer,
                    gatewayMeters);
            gatewayMeters.gateways(gateways);
            gatewayMeters.bindTo(registry);
            EstimatorMeters estimatorMeters = new EstimatorMeters(new CompileEstimator());
            estimatorMeters.recorder(); // a server's estimates, as the proxy has one for each backend
            estimatorMeters.bindTo(registry);
            new BrokerMeters(gateways, Optional.of(broker)).bindTo(registry);
            new ServerGatewayMeters("main", broker).bindTo(registry); // bound for a SQL Server backend
            new FleetMeters("main", () -> false, () -> 2, Optional.of(() -> broker.state().role()))
                    .bindTo(registry); // bound when a fleet is configured
            new DegradeMeters("main", new DegradeCounts()).bindTo(registry);
            new ProxyMeters(server).bindTo(registry);
            new EventLoopMeters(server.eventLoopGroup()).bindTo(registry);
            Set<String> names = new TreeSet<>();
            for (String sample : new PrometheusText(registry.scrape()).sampleNames()) {
                names.add(sample);
                // A histogram's family name, as docs/operations.md writes it: memogate_gateway_wait_seconds.
                names.add(sample.replaceFirst("_(bucket|count|sum)$", ""));
            }
            return names;
        } finally {
            registry.close();
        }
    }

    private static Set<String> metrics(String text) {
        Set<String> names = new TreeSet<>();
        Matcher matcher = METRIC.matcher(text);
        while (matcher.find()) {
            names.add(matcher.group());
        }
        return names;
    }

    private static List<String> strings(JsonNode array) {
        List<String> values = new ArrayList<>();
        StreamSupport.stream(array.spliterator(), false).forEach(node -> values.add(node.asText()));
        return values;
    }
}
