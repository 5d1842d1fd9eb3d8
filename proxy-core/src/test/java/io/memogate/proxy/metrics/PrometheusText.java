package io.memogate.proxy.metrics;

import io.memogate.proxy.testing.Await;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.DoublePredicate;

/** A scrape in the Prometheus text format, read the way Prometheus reads it: by sample name and labels. */
public record PrometheusText(String text) {

    private static final HttpClient CLIENT = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(5)).build();

    /** GET {@code url}, which must answer 200. */
    public static PrometheusText scrape(URI url) throws IOException, InterruptedException {
        HttpResponse<String> response = CLIENT.send(HttpRequest.newBuilder(url).timeout(Duration.ofSeconds(10)).build(),
                HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + url + " answered " + response.statusCode() + ": " + response.body());
        }
        return new PrometheusText(response.body());
    }

    /**
     * Scrapes until the sample's value satisfies {@code expected}, for at most 10 seconds (sessions end on
     * the proxy's event loop a moment after the client saw them end); returns the last scrape.
     */
    public static PrometheusText awaitSample(URI url, String sample, DoublePredicate expected)
            throws InterruptedException {
        AtomicReference<PrometheusText> scrape = new AtomicReference<>();
        Await.holdsWithin(Duration.ofSeconds(10), () -> {
            scrape.set(scrape(url));
            return scrape.get().value(sample).filter(expected::test).isPresent();
        });
        return scrape.get();
    }

    /** The names of all samples, without labels, in order of appearance. */
    public Set<String> sampleNames() {
        Set<String> names = new LinkedHashSet<>();
        for (String line : lines()) {
            names.add(nameOf(line));
        }
        return names;
    }

    /** The value of the first sample called {@code sample} (any labels; {@code name{tier="small"}} for one). */
    public Optional<Double> value(String sample) {
        for (String line : lines()) {
            String key = line.substring(0, line.lastIndexOf(' '));
            if (sample.contains("{") ? key.equals(sample) : nameOf(line).equals(sample)) {
                return Optional.of(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        return Optional.empty();
    }

    /** The HELP line's text for a metric family. */
    public Optional<String> help(String family) {
        String prefix = "# HELP " + family + " ";
        return text.lines().filter(l -> l.startsWith(prefix)).map(l -> l.substring(prefix.length())).findFirst();
    }

    private List<String> lines() {
        return text.lines().filter(l -> !l.isBlank() && !l.startsWith("#")).toList();
    }

    private static String nameOf(String line) {
        int end = line.indexOf('{');
        return line.substring(0, end >= 0 ? end : line.indexOf(' '));
    }
}
