package io.memogate.testkit;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Supplier;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * Memogate in front of a test class's database, inside the test JVM, on free ports: started before the class's
 * first test, stopped after its last. Each test starts with no statements recorded, so what it asserts on
 * ({@link #statements()}) is what it sent itself.
 * <pre>{@code
 * static EmbeddedPostgres postgres = EmbeddedPostgres.start();
 *
 * @RegisterExtension
 * static MemogateExtension memogate = MemogateExtension.inFrontOf(() -> postgres.jdbcUrl("shop"))
 *         .with(settings -> settings.withTarget(64L << 20).withTierLimits(4, 2, 1));
 *
 * @Test
 * void ordersReportNeedsNoLargeGateway() throws SQLException {
 *     try (Connection c = DriverManager.getConnection(memogate.jdbcUrl(), "app", "secret")) { ... }
 *     assertThat(memogate.statements()).noneAbove(Tier.MEDIUM);
 * }
 * }</pre>
 * Register it on a static field; or annotate the class with {@link Memogate}, which registers one with the
 * default settings and gives tests the running {@link MemogateProxy} as a parameter.
 */
public final class MemogateExtension implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback,
        ParameterResolver {

    /** Empty when the class's {@link Memogate} annotation names the database. */
    private final Optional<Supplier<String>> jdbcUrl;
    private final MemogateSettings settings;
    private MemogateProxy running;
    /** The class whose beforeAll started it: nested classes run inside it and leave it running. */
    private String startedFor;

    /** For {@link Memogate}: the database is the one the annotation names. */
    public MemogateExtension() {
        this(Optional.empty(), MemogateSettings.defaults());
    }

    private MemogateExtension(Optional<Supplier<String>> jdbcUrl, MemogateSettings settings) {
        this.jdbcUrl = jdbcUrl;
        this.settings = settings;
    }

    /** In front of the database of this pgjdbc URL ({@code jdbc:postgresql://host:port/database}). */
    public static MemogateExtension inFrontOf(String jdbcUrl) {
        TargetDatabase.fromJdbcUrl(jdbcUrl); // a wrong URL fails where it is written, not at the first test
        return inFrontOf(() -> jdbcUrl);
    }

    /**
     * In front of the database of the URL {@code jdbcUrl} gives before the class's first test: for a database
     * started by the class itself (a static field, another extension registered before this one).
     */
    public static MemogateExtension inFrontOf(Supplier<String> jdbcUrl) {
        return new MemogateExtension(Optional.of(Objects.requireNonNull(jdbcUrl, "jdbcUrl")),
                MemogateSettings.defaults());
    }

    /** This extension with other settings: {@code change} gets the current ones. */
    public MemogateExtension with(UnaryOperator<MemogateSettings> change) {
        return new MemogateExtension(jdbcUrl, Objects.requireNonNull(change.apply(settings), "settings"));
    }

    public MemogateSettings settings() {
        return settings;
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        if (running != null) {
            return;
        }
        running = MemogateProxy.start(target(context), settings);
        startedFor = context.getUniqueId();
    }

    @Override
    public void afterAll(ExtensionContext context) {
        if (running != null && context.getUniqueId().equals(startedFor)) {
            try {
                running.close();
            } finally {
                running = null;
                startedFor = null;
            }
        }
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        running().clearStatements();
    }

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == MemogateProxy.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return running();
    }

    /** The running proxy. */
    public MemogateProxy proxy() {
        return running();
    }

    /** See {@link MemogateProxy#jdbcUrl()}. */
    public String jdbcUrl() {
        return running().jdbcUrl();
    }

    public String jdbcUrl(String database) {
        return running().jdbcUrl(database);
    }

    public String consoleJdbcUrl() {
        return running().consoleJdbcUrl();
    }

    public URI metricsUrl() {
        return running().metricsUrl();
    }

    /** The statements the current test sent through Memogate so far, oldest first. */
    public Statements statements() {
        return running().statements();
    }

    public void clearStatements() {
        running().clearStatements();
    }

    private MemogateProxy running() {
        if (running == null) {
            throw new IllegalStateException("Memogate is not running: register the MemogateExtension on a static "
                    + "field (@RegisterExtension static MemogateExtension ...); it runs from before the class's "
                    + "first test to after its last");
        }
        return running;
    }

    private TargetDatabase target(ExtensionContext context) {
        if (jdbcUrl.isPresent()) {
            return TargetDatabase.fromJdbcUrl(Objects.requireNonNull(jdbcUrl.get().get(),
                    "the JDBC URL MemogateExtension was given is null"));
        }
        Class<?> testClass = context.getRequiredTestClass();
        Memogate declared = AnnotationSupport.findAnnotation(testClass, Memogate.class)
                .orElseThrow(() -> new ExtensionConfigurationException("MemogateExtension on " + testClass.getName()
                        + " needs a database: annotate the class with @Memogate(url = ...) or register "
                        + "MemogateExtension.inFrontOf(...) with @RegisterExtension"));
        return TargetDatabase.fromJdbcUrl(urlOf(declared, testClass));
    }

    private static String urlOf(Memogate declared, Class<?> testClass) {
        if (!declared.url().isEmpty()) {
            return declared.url();
        }
        String variable = declared.urlFromEnvironment();
        if (variable.isEmpty()) {
            throw new ExtensionConfigurationException("@Memogate on " + testClass.getName()
                    + " names no database: set url or urlFromEnvironment");
        }
        String url = Optional.ofNullable(System.getenv(variable)).orElse(System.getProperty(variable));
        if (url == null || url.isBlank()) {
            throw new ExtensionConfigurationException("@Memogate on " + testClass.getName() + " reads the database's "
                    + "URL from " + variable + ", which is set neither in the environment nor as a system property");
        }
        return url;
    }
}
