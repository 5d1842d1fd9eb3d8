package io.memogate.proxy.calibrate.mysql;

import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.mysql.SyntheticJoins;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The built-in corpus of a MySQL/MariaDB calibration, in a database of its own ({@value #DATABASE}, created and
 * dropped by calibrate): a fact table {@code f} with a key per dimension, dimension tables {@code s1..s12} of 23
 * to 56 rows indexed on their join column {@code a}, {@code u1..u12} the same rows without that index, and
 * {@code big} (10,000 rows) for IN lists; ANALYZEd. Its statements are cliques without pruning from 4 to 10
 * tables (the 10-clique searched for about 2 s on MariaDB 10.11) and of 12 under depths 4 to 7, over both sets of
 * dimensions (an extension that weighs a key lookup costs two to three times one that scans: the fit tells the
 * two apart only where both are searched),
 * stars and chains without pruning, the three shapes of 12 under the server's pruning, cliques of 16 to 32 and
 * chains of 24 to 48 aliases of the dimensions under pruning (what memory grows with past a dozen tables), and IN
 * lists of 5,000 to 30,000 values (long enough not to bypass the estimate): none predicted to search for more
 * than a few seconds.
 */
public final class MySqlCorpus {

    /** The database calibrate creates its tables in, and drops. */
    public static final String DATABASE = "memogate_calibrate";
    static final int DIMENSIONS = 12;
    /** The prefix of the dimension tables without an index on their join column. */
    static final String UNINDEXED = "u";
    private static final int BIG_ROWS = 10_000;

    private final OptimizerSettings base;

    /** @param base the server's optimizer settings (optimizer_switch kept), which each statement's depth and prune change */
    public MySqlCorpus(OptimizerSettings base) {
        this.base = base;
    }

    /** Creates the database and its tables (after dropping what a previous run left). */
    public static void create(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
            s.execute("CREATE DATABASE " + DATABASE);
            s.execute("USE " + DATABASE);
            s.execute("CREATE TABLE f (id INT PRIMARY KEY" + IntStream.rangeClosed(1, DIMENSIONS)
                    .mapToObj(i -> ", d" + i + " INT, KEY (d" + i + ")").collect(Collectors.joining()) + ")");
            s.execute("INSERT INTO f VALUES " + IntStream.range(0, 200).mapToObj(r -> "(" + r + IntStream
                    .rangeClosed(1, DIMENSIONS).mapToObj(i -> ", " + (r * 7 % (i + 3))).collect(Collectors.joining())
                    + ")").collect(Collectors.joining(", ")));
            for (int i = 1; i <= DIMENSIONS; i++) {
                int rows = 20 + 3 * i;
                s.execute("CREATE TABLE s" + i + " (id INT PRIMARY KEY, v INT, a INT, KEY (a))");
                int modulus = i + 2;
                s.execute("INSERT INTO s" + i + " VALUES " + IntStream.range(0, rows)
                        .mapToObj(r -> "(" + r + ", " + (r % 5) + ", " + (r % modulus) + ")")
                        .collect(Collectors.joining(", ")));
                s.execute("CREATE TABLE " + UNINDEXED + i + " (id INT PRIMARY KEY, v INT, a INT)");
                s.execute("INSERT INTO " + UNINDEXED + i + " SELECT * FROM s" + i);
            }
            s.execute("CREATE TABLE big (id INT PRIMARY KEY, v INT, KEY (v))");
            for (int from = 0; from < BIG_ROWS; from += 1000) {
                s.execute("INSERT INTO big VALUES " + IntStream.range(from, from + 1000)
                        .mapToObj(r -> "(" + r + ", " + (r % 100) + ")").collect(Collectors.joining(", ")));
            }
            s.execute("ANALYZE TABLE f, big, " + IntStream.rangeClosed(1, DIMENSIONS)
                    .mapToObj(i -> "s" + i + ", " + UNINDEXED + i).collect(Collectors.joining(", ")));
        }
    }

    public static void drop(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
        }
    }

    /** The statements, shortest searches first. */
    public List<OptimizerCase> cases() {
        List<OptimizerCase> cases = new ArrayList<>();
        for (int n = 4; n <= 10; n++) {
            cases.add(join("clique", SyntheticJoins.clique(n), n, 0, 62, true));
            cases.add(join("clique without indexes", SyntheticJoins.clique(UNINDEXED, n), n, 0, 62, true));
        }
        for (int depth = 4; depth <= 6; depth++) {
            cases.add(join("clique", SyntheticJoins.clique(12), 12, 0, depth, true));
            cases.add(join("clique without indexes", SyntheticJoins.clique(UNINDEXED, 12), 12, 0, depth, true));
        }
        cases.add(join("clique", SyntheticJoins.clique(12), 12, 0, 0, true));
        for (int n = 6; n <= 11; n++) {
            cases.add(join("star", SyntheticJoins.star(n), n, 0, 62, false));
        }
        for (int n = 6; n <= 12; n += 2) {
            cases.add(join("chain", SyntheticJoins.chain(n), n, 0, 62, false));
        }
        for (int prune = 1; prune <= 2; prune++) {
            cases.add(join("clique", SyntheticJoins.clique(12), 12, prune, 62, true));
            cases.add(join("star", SyntheticJoins.star(12), 12, prune, 62, true));
            cases.add(join("chain", SyntheticJoins.chain(12), 12, prune, 62, true));
        }
        // Joins past the dimensions' count, by aliases, for what the tables' square and an equality class's cube
        // cost: a pruned search of them takes milliseconds.
        for (int n : new int[] {16, 24, 32}) {
            cases.add(join("clique of aliases", SyntheticJoins.aliasedClique(n, DIMENSIONS), n, 2, 62, true));
        }
        for (int n : new int[] {24, 36, 48}) {
            cases.add(join("chain of aliases", SyntheticJoins.aliasedChain(n, DIMENSIONS), n, 2, 62, true));
        }
        for (int values : new int[] {5_000, 10_000, 30_000}) {
            cases.add(new OptimizerCase("IN list of " + values, SyntheticJoins.inList(values), settings(2, 62), true));
        }
        return cases;
    }

    private OptimizerCase join(String shape, String sql, int tables, int prune, int depth, boolean exact) {
        return new OptimizerCase(shape + " " + tables + ", prune " + prune + ", depth " + depth, sql,
                settings(prune, depth), exact);
    }

    private OptimizerSettings settings(int prune, int depth) {
        return base.with("optimizer_prune_level", Integer.toString(prune))
                .with("optimizer_search_depth", Integer.toString(depth));
    }
}
