package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import io.memogate.estimator.dialect.DialectSettings;
import io.memogate.estimator.lexer.LexicalAnalyzer;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.Executor;
import java.util.concurrent.ForkJoinPool;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * What sessions need around the admission hook: the server's defaults of the settings its estimator reads
 * (kept current by the broker) and the settings each database's sessions get at login (read with its
 * catalog), from which each session's own settings start (both of the server's kind, opaque here), each database's catalog as last read (whose routines may change a session's
 * settings when it calls them), and how long a statement may wait before its
 * client is told that it is queued (admission.waitNotice, which a reload changes at once: hence a
 * supplier, read at each wait).
 *
 * @param textReader where statement texts too long to read on a session's event loop are decoded and read
 *     ({@link GatedAdmission#OFF_LOOP_CHARS}): the common pool, or a test's own
 */
public record AdmissionSupport(Supplier<DialectSettings> serverDefaults, Function<String, LoginSettings> loginSettings,
                               Function<String, Catalog> catalogs, Supplier<Duration> waitNotice,
                               LexicalAnalyzer analyzer, Executor textReader) {

    public AdmissionSupport {
        Objects.requireNonNull(serverDefaults, "serverDefaults");
        Objects.requireNonNull(loginSettings, "loginSettings");
        Objects.requireNonNull(catalogs, "catalogs");
        Objects.requireNonNull(waitNotice, "waitNotice");
        Objects.requireNonNull(analyzer, "analyzer");
        Objects.requireNonNull(textReader, "textReader");
    }

    /** Long texts read on the common pool. */
    public AdmissionSupport(Supplier<DialectSettings> serverDefaults, Function<String, LoginSettings> loginSettings,
            Function<String, Catalog> catalogs, Supplier<Duration> waitNotice, LexicalAnalyzer analyzer) {
        this(serverDefaults, loginSettings, catalogs, waitNotice, analyzer, ForkJoinPool.commonPool());
    }

    /** A wait notice that never changes, and no login settings, no catalog. */
    public AdmissionSupport(Supplier<DialectSettings> serverDefaults, Duration waitNoticeAfter, LexicalAnalyzer analyzer) {
        this(serverDefaults, database -> LoginSettings.NONE, database -> Catalog.NONE, () -> waitNoticeAfter,
                analyzer);
    }

    /** The same, long texts read on {@code reader}. */
    public AdmissionSupport withTextReader(Executor reader) {
        return new AdmissionSupport(serverDefaults, loginSettings, catalogs, waitNotice, analyzer, reader);
    }

    /** How long a statement waits before its client is told; {@link Duration#ZERO}: never. */
    public Duration waitNoticeAfter() {
        return waitNotice.get();
    }
}
