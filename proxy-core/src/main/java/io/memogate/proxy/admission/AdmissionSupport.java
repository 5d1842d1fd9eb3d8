package io.memogate.proxy.admission;

import io.memogate.estimator.lexer.LexicalAnalyzer;
import io.memogate.estimator.planner.PlannerSettings;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What sessions need around the admission hook: the server's planner defaults (kept current by the
 * broker) from which each session's own settings start, and how long a statement may wait before its
 * client is told that it is queued.
 */
public record AdmissionSupport(Supplier<PlannerSettings> plannerDefaults, Duration waitNoticeAfter,
                               LexicalAnalyzer analyzer) {

    /** PostgreSQL's built-in planner defaults, a notice after one second. */
    public static final AdmissionSupport DEFAULTS =
            new AdmissionSupport(() -> PlannerSettings.DEFAULTS, Duration.ofSeconds(1), new LexicalAnalyzer());

    public AdmissionSupport {
        Objects.requireNonNull(plannerDefaults, "plannerDefaults");
        Objects.requireNonNull(waitNoticeAfter, "waitNoticeAfter");
        Objects.requireNonNull(analyzer, "analyzer");
    }

    public SessionSettings newSessionSettings() {
        return new SessionSettings(plannerDefaults, analyzer);
    }

    public PreparedQueries newPreparedQueries() {
        return new PreparedQueries(analyzer);
    }
}
