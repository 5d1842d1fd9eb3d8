package io.memogate.bench.passthrough;

import java.time.Duration;

/**
 * Which part of a pgbench run the relay's CPU and counts are read over. pgbench connects all its clients before
 * its first transaction, and at hundreds of clients the log-ins (SCRAM, a server process each) take seconds and
 * most of a relay's CPU in a 20 s run; its TPS figure leaves them out, a reading around the whole process does not.
 */
enum CountWindow {

    /**
     * From pgbench's second progress report to its first report in the last {@link #SECONDS_AFTER} seconds before
     * the run's end: all clients
     * connected and transacting (pgbench reports first once the last client has logged in), the first second (each
     * client's first statements) and the last seconds (the readings at the window's end must finish while reports
     * still come, to be placed among them) left out. Each reading is divided by the transactions between its own
     * instants ({@link io.memogate.bench.pgbench.PgbenchProgress}). pgbench 15's -T counts its connection set-up,
     * so at hundreds of clients the window is the run less the log-ins and 4-5 s.
     */
    STEADY,
    /** Around the whole pgbench process, connection set-up and the last disconnects included. */
    WHOLE;

    /** The progress report after which the window opens. */
    static final int FIRST_REPORT = 2;
    /**
     * The window closes at pgbench's first report this many seconds before the run's end, counted from its launch
     * (its -T starts a little later, after its own start-up): the readings then need the report after it, and
     * pgbench's last report comes a second before its end at the earliest.
     */
    static final int SECONDS_AFTER = 3;
    /**
     * The shortest run a window fits in: shorter runs are read whole. Besides the reports before and after it, the
     * window needs its {@link #SHORTEST} second and room for pgbench's own start-up, which delays every report but
     * not the instant the window must close by: at the bench's default of 6 s no window ever opened.
     */
    static final int SHORTEST_RUN_SECONDS = FIRST_REPORT + SECONDS_AFTER + 3;
    /** The shortest window read: a run whose clients took longer to connect has none. */
    static final Duration SHORTEST = Duration.ofSeconds(1);

    /** The window a run of {@code seconds} is read over when this one is asked for. */
    CountWindow forRun(int seconds) {
        return this == STEADY && seconds < SHORTEST_RUN_SECONDS ? WHOLE : this;
    }

    String describe() {
        return switch (this) {
            case STEADY -> "from pgbench's progress report " + FIRST_REPORT + " to its first report in the run's last "
                    + SECONDS_AFTER + " s (all clients connected; runs under " + SHORTEST_RUN_SECONDS
                    + " s are read whole), divided by the transactions pgbench reported in between";
            case WHOLE -> "around the whole pgbench process (connection set-up included), divided by pgbench's"
                    + " transactions";
        };
    }

    String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }
}
