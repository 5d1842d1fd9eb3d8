package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.postgres.PlannerSettings;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.postgres.catalog.RoleSettings;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What sessions need around the admission hook: the server's planner defaults (kept current by the
 * broker) and each database's role and database settings (read with its index catalog), from which each
 * session's own settings start, each database's catalog as last read (whose routines may change a session's
 * settings when it calls them), and how long a statement may wait before its
 * client is told that it is queued (admission.waitNotice, which a reload changes at once: hence a
 * supplier, read at each wait).
 *
 * @param textReader where statement texts too long to read on a session's event loop are decoded and read
 *     ({@link GatedAdmission#OFF_LOOP_CHARS}): the common pool, or a test's own
 */
public record AdmissionSupport(Supplier<PlannerSettings> plannerDefaults, Function<String, RoleSettings> roleSettings,
                               Function<String, Catalog> catalogs, Supplier<Duration> waitNotice,
                               LexicalAnalyzer analyzer, Executor textReader) {

    /** PostgreSQL's built-in planner defaults, a notice after one second. */
    public static final AdmissionSupport DEFAULTS =
            new AdmissionSupport(() -> PlannerSettings.DEFAULTS, Duration.ofSeconds(1),
                    PostgresLexicalRules.analyzer());

    public AdmissionSupport {
        Objects.requireNonNull(plannerDefaults, "plannerDefaults");
        Objects.requireNonNull(roleSettings, "roleSettings");
        Objects.requireNonNull(catalogs, "catalogs");
        Objects.requireNonNull(waitNotice, "waitNotice");
        Objects.requireNonNull(analyzer, "analyzer");
        Objects.requireNonNull(textReader, "textReader");
    }

    /** Long texts read on the common pool. */
    public AdmissionSupport(Supplier<PlannerSettings> plannerDefaults, Function<String, RoleSettings> roleSettings,
            Function<String, Catalog> catalogs, Supplier<Duration> waitNotice, LexicalAnalyzer analyzer) {
        this(plannerDefaults, roleSettings, catalogs, waitNotice, analyzer, ForkJoinPool.commonPool());
    }

    /** A wait notice that never changes, and no role or database settings, no catalog. */
    public AdmissionSupport(Supplier<PlannerSettings> plannerDefaults, Duration waitNoticeAfter, LexicalAnalyzer analyzer) {
        this(plannerDefaults, database -> RoleSettings.NONE, database -> Catalog.NONE, () -> waitNoticeAfter,
                analyzer);
    }

    /** The same, long texts read on {@code reader}. */
    public AdmissionSupport withTextReader(Executor reader) {
        return new AdmissionSupport(plannerDefaults, roleSettings, catalogs, waitNotice, analyzer, reader);
    }

    /** How long a statement waits before its client is told; {@link Duration#ZERO}: never. */
    public Duration waitNoticeAfter() {
        return waitNotice.get();
    }
}
