package io.memogate.bench.storm.mariadb;

import io.memogate.bench.storm.mariadb.HeavyStatements.Kind;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.LongAdder;

/**
 * One heavy client of the MariaDB storm: sends statements of one {@link Kind} in a loop until stopped, over one
 * connection it opens again after losing it (a restarted server), and counts how each ended.
 */
final class HeavyClient implements Runnable {

    /** How a heavy client's statements ended, summed over the clients of a kind. */
    record Tally(LongAdder completed, LongAdder timedOut, LongAdder refused, LongAdder connectionFailures) {
        Tally() {
            this(new LongAdder(), new LongAdder(), new LongAdder(), new LongAdder());
        }

        long[] snapshot() {
            return new long[] {completed.sum(), timedOut.sum(), refused.sum(), connectionFailures.sum()};
        }
    }

    private final String url;
    private final String user;
    private final String password;
    private final Kind kind;
    private final HeavyStatements statements;
    private final SplittableRandom random;
    private final Tally tally;
    private volatile boolean stopped;

    HeavyClient(String url, String user, String password, Kind kind, HeavyStatements statements, long seed, Tally tally) {
        this.url = url;
        this.user = user;
        this.password = password;
        this.kind = kind;
        this.statements = statements;
        this.random = new SplittableRandom(seed);
        this.tally = tally;
    }

    void stop() {
        stopped = true;
    }

    @Override
    public void run() {
        while (!stopped) {
            try (Connection connection = DriverManager.getConnection(url, user, password);
                 Statement statement = connection.createStatement()) {
                while (!stopped) {
                    try (ResultSet rows = statement.executeQuery(statements.next(kind, random))) {
                        rows.next();
                        tally.completed().increment();
                    } catch (SQLException e) {
                        if (!countedAsEnded(e)) {
                            throw e;
                        }
                    }
                }
            } catch (SQLException e) {
                tally.connectionFailures().increment();
                pause();
            }
        }
    }

    /**
     * 1969: max_statement_time ended the search. 1317 (70100): Memogate's gateway refused it, or a KILL QUERY
     * ended it. The connection goes on after both; anything else ends it.
     */
    private boolean countedAsEnded(SQLException e) {
        if (e.getErrorCode() == 1969) {
            tally.timedOut().increment();
            return true;
        }
        if (e.getErrorCode() == 1317) {
            tally.refused().increment();
            return true;
        }
        return false;
    }

    /** After a connection lost or refused: the server may be restarting. */
    private static void pause() {
        try {
            Thread.sleep(1000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
