package io.memogate.proxy.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.config.AdminHttpConfig;
import io.memogate.proxy.server.ListenException;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.BaseUnits;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** The admin endpoint as Prometheus, a load balancer and a curious operator see it: real Netty, real HTTP. */
class AdminHttpServerTest {

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    private MetricsEndpoint endpoint;
    private URI base;

    @BeforeEach
    void start() throws Exception {
        endpoint = MetricsEndpoint.start(AdminHttpConfig.of("127.0.0.1", 0));
        AdminHttpServer http = endpoint.http().orElseThrow();
        assertThat(http.port()).isPositive();
        base = http.url("");
    }

    @AfterEach
    void stop() {
        endpoint.close();
    }

    @Test
    void metricsInThePrometheusTextFormat() throws Exception {
        Gauge.builder(Names.CLIENT_CONNECTIONS, () -> 3).description("sessions").baseUnit(BaseUnits.CONNECTIONS)
                .register(endpoint.registry());

        HttpResponse<String> response = get("/metrics");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type")).contains("text/plain; version=0.0.4; charset=utf-8");
        PrometheusText scrape = new PrometheusText(response.body());
        assertThat(scrape.value("memogate_client_connections")).contains(3.0);
        assertThat(scrape.help("memogate_client_connections")).contains("sessions");
        // The JVM's meters come with every endpoint, under Micrometer's standard names.
        assertThat(scrape.sampleNames()).contains("jvm_memory_used_bytes", "jvm_gc_memory_allocated_bytes_total",
                "jvm_threads_live_threads", "system_cpu_count", "process_uptime_seconds");
        assertThat(endpoint.metricsUrl()).contains(base.resolve("/metrics"));
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() throws Exception {
        // What Prometheus 2.x sends.
        HttpResponse<String> response = client.send(request("/metrics").header("Accept",
                "application/openmetrics-text;version=1.0.0,application/openmetrics-text;version=0.0.1;q=0.75,"
                        + "text/plain;version=0.0.4;q=0.5,*/*;q=0.1").build(), HttpResponse.BodyHandlers.ofString());

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("content-type"))
                .contains("application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(response.body()).endsWith("# EOF\n");
    }

    @Test
    void healthIsUpWhileServingAndDownFromTheStartOfShutdown() throws Exception {
        assertThat(health()).as("not serving yet").isEqualTo("503 {\"status\":\"DOWN\"}");

        endpoint.markServing();
        HttpResponse<String> up = get("/health");
        assertThat(up.statusCode()).isEqualTo(200);
        assertThat(up.headers().firstValue("content-type")).contains("application/json");
        assertThat(up.body()).isEqualTo("{\"status\":\"UP\"}");

        endpoint.markStopping();
        assertThat(health()).isEqualTo("503 {\"status\":\"DOWN\"}");
    }

    @Test
    void componentsAddTheirDetailsAndCanTakeTheProxyDown() throws Exception {
        endpoint.markServing();
        endpoint.addHealthCheck(() -> Health.UP.with("broker", "LIVE"));
        assertThat(health()).isEqualTo("200 {\"status\":\"UP\",\"broker\":\"LIVE\"}");

        endpoint.addHealthCheck(() -> new Health(false, Map.of("probe", "connection refused: \"db1\"")));
        assertThat(health()).isEqualTo("503 {\"status\":\"DOWN\",\"broker\":\"LIVE\",\"probe\":\"connection refused: \\\"db1\\\"\"}");
    }

    @Test
    void aFailingCheckIsAnErrorNotAnAnswer() throws Exception {
        endpoint.markServing();
        endpoint.addHealthCheck(() -> {
            throw new IllegalStateException("broker not initialised");
        });

        HttpResponse<String> response = get("/health");
        assertThat(response.statusCode()).isEqualTo(500);
        assertThat(response.body()).contains("broker not initialised");
    }

    @Test
    void unknownPathsAndOtherMethods() throws Exception {
        HttpResponse<String> missing = get("/metrics/jvm");
        assertThat(missing.statusCode()).isEqualTo(404);
        assertThat(get("/").statusCode()).isEqualTo(404);

        HttpResponse<String> post = client.send(request("/metrics").POST(HttpRequest.BodyPublishers.ofString("x")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("allow")).contains("GET");
        assertThat(client.send(request("/health").DELETE().build(), HttpResponse.BodyHandlers.ofString()).statusCode())
                .isEqualTo(405);
        // The query string is not part of the path.
        assertThat(get("/metrics?name[]=jvm_threads_live_threads").statusCode()).isEqualTo(200);
    }

    @Test
    void aTakenPortIsAClearError() {
        int taken = endpoint.http().orElseThrow().port();

        assertThatThrownBy(() -> MetricsEndpoint.start(AdminHttpConfig.of("127.0.0.1", taken)))
                .isInstanceOfSatisfying(ListenException.class,
                        e -> assertThat(e.reason()).isEqualTo(ListenException.Reason.ADDRESS_IN_USE))
                .hasMessage("cannot listen for admin HTTP on 127.0.0.1:" + taken + " (admin.http): address already in use");
    }

    @Test
    void disabledMeansNoHttpButStillARegistry() throws Exception {
        try (MetricsEndpoint quiet = MetricsEndpoint.start(AdminHttpConfig.of("127.0.0.1", 0).withEnabled(false))) {
            assertThat(quiet.http()).isEmpty();
            assertThat(quiet.metricsUrl()).isEmpty();
            assertThat(quiet.registry().find("jvm.memory.used").gauges()).isNotEmpty();
        }
    }

    private String health() throws IOException, InterruptedException {
        HttpResponse<String> response = get("/health");
        return response.statusCode() + " " + response.body();
    }

    private HttpResponse<String> get(String path) throws IOException, InterruptedException {
        return client.send(request(path).build(), HttpResponse.BodyHandlers.ofString());
    }

    private HttpRequest.Builder request(String path) {
        return HttpRequest.newBuilder(base.resolve(path)).timeout(Duration.ofSeconds(10));
    }
}
