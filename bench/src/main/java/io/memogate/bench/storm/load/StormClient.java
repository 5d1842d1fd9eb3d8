package io.memogate.bench.storm.load;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.random.RandomGenerator;

/**
 * One client of the storm, looping as the paper's load generator did: pick a report, make it unique,
 * run it; on failure reconnect when the connection is gone and retry, up to {@code retries} times; then
 * the next report. Every attempt and every finished submission goes to the {@link EventLog}.
 *
 * <p>After a lost connection (a kill or a restart) it waits {@code retryPause} before trying again, as a
 * person or a BI tool would; without it, the retries would all be spent in the second the server needs to
 * reinitialize. A gateway refusal is retried at once: the connection is fine and the queue may have moved.
 *
 * <p>{@link #stop()} aborts the connection in use, so a client blocked in a minutes-long plan or an
 * admission queue ends at once; what it was doing then is not recorded.
 */
public final class StormClient implements Runnable {

    private final int id;
    private final Endpoint endpoint;
    private final ConnectionStyle style;
    private final List<Template> templates;
    private final int retries;
    private final Duration retryPause;
    private final RandomGenerator random;
    private final EventLog log;
    private final LongSupplier nanoTime;
    private final CountDownLatch stopSignal = new CountDownLatch(1);
    private volatile boolean stopped;
    private volatile Connection connection;
    private long submissions;
    /** What the proxy's NOTICE said the last attempt ran under, by {@link #run}; this client's thread only. */
    private Optional<String> degradedTo = Optional.empty();

    public StormClient(int id, Endpoint endpoint, ConnectionStyle style, List<Template> templates, int retries,
                       Duration retryPause, RandomGenerator random, EventLog log, LongSupplier nanoTime) {
        this.id = id;
        this.endpoint = endpoint;
        this.style = style;
        this.templates = List.copyOf(templates);
        this.retries = retries;
        this.retryPause = retryPause;
        this.random = random;
        this.log = log;
        this.nanoTime = nanoTime;
    }

    @Override
    public void run() {
        try {
            while (!stopped) {
                submit();
            }
        } finally {
            discardConnection();
        }
    }

    private void submit() {
        Template template = templates.get(random.nextInt(templates.size()));
        long submission = ++submissions;
        // Always true (sales.quantity is 1 to 4), different every time.
        String sql = template.render(id, submission, 1_000 + random.nextLong(1_000_000_000L));
        long start = nanoTime.getAsLong();
        for (int attempt = 1; attempt <= 1 + retries; attempt++) {
            long attemptStart = nanoTime.getAsLong();
            Optional<Failure> failure = run(sql);
            if (stopped) {
                return;
            }
            long end = nanoTime.getAsLong();
            log.add(new Attempt(id, submission, attempt, template.name(), attemptStart, end, failure, degradedTo));
            if (failure.isEmpty()) {
                log.add(new Submission(id, submission, template.name(), start, end, attempt, true));
                return;
            }
            if (failure.get().kind() != ErrorKind.GATEWAY_TIMEOUT && attempt <= retries && pause()) {
                return;
            }
        }
        log.add(new Submission(id, submission, template.name(), start, nanoTime.getAsLong(), 1 + retries, false));
    }

    /** One attempt; empty when every row was read. */
    private Optional<Failure> run(String sql) {
        try {
            Connection c = connection;
            if (c == null) {
                c = endpoint.connect();
                connection = c;
                if (stopped) {
                    return Optional.empty(); // stop() may have missed the connection we just made
                }
            }
            degradedTo = Optional.empty();
            try (Statement statement = c.createStatement()) {
                try (ResultSet rows = statement.executeQuery(sql)) {
                    while (rows.next()) {
                        // read every row, as a report would
                    }
                } catch (SQLException e) {
                    throw new FailedStatement(e, warnings(statement));
                }
                degradedTo = DegradeNotice.settingsIn(warnings(statement));
            }
            if (style == ConnectionStyle.NEW) {
                discardConnection();
            }
            return Optional.empty();
        } catch (FailedStatement e) {
            return Optional.of(failed(Failure.of(e.failure, e.warnings)));
        } catch (SQLException e) {
            return Optional.of(failed(Failure.of(e, null)));
        }
    }

    /** The warnings the server sent before the statement failed; null when there were none or they are gone. */
    private static SQLWarning warnings(Statement statement) {
        try {
            return statement.getWarnings();
        } catch (SQLException e) {
            return null;
        }
    }

    /** An attempt's failure with what the server said before it; only thrown and caught within {@link #run}. */
    private static final class FailedStatement extends Exception {
        private static final long serialVersionUID = 1L;
        final transient SQLException failure;
        final transient SQLWarning warnings;

        FailedStatement(SQLException failure, SQLWarning warnings) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
            this.warnings = warnings;
        }
    }

    /**
     * A refused statement leaves the session usable (the proxy sends ErrorResponse, ReadyForQuery); anything
     * else may have ended it, and the next attempt reconnects.
     */
    private Failure failed(Failure failure) {
        if (style == ConnectionStyle.NEW || failure.kind() != ErrorKind.GATEWAY_TIMEOUT) {
            discardConnection();
        }
        return failure;
    }

    /** Waits the retry pause; true when the client was stopped meanwhile. */
    private boolean pause() {
        try {
            return stopSignal.await(retryPause.toNanos(), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stopped = true;
            return true;
        }
    }

    private void discardConnection() {
        Connection c = connection;
        connection = null;
        if (c != null) {
            try {
                c.close();
            } catch (SQLException e) {
                // already broken: nothing to give back
            }
        }
    }

    /** Ends the loop; aborts the connection in use so a client blocked in a plan or a queue returns now. */
    public void stop() {
        stopped = true;
        stopSignal.countDown();
        Connection c = connection;
        if (c != null) {
            try {
                c.abort(Runnable::run);
            } catch (SQLException e) {
                // closed meanwhile
            }
        }
    }
}
