package io.memogate.bench.accuracy.mariadb;

import io.memogate.estimator.mysql.OptimizerSettings;
import io.memogate.estimator.mysql.SyntheticJoins;
import io.memogate.proxy.calibrate.mysql.OptimizerCase;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * A seeded corpus of MariaDB join searches over a seeded schema, for the optimizer-time model's accuracy: tables
 * {@code t1..t24} of 10 to 5,000 rows (log-uniform), each with a primary key {@code id} and five columns
 * {@code a..e} of random numbers of distinct values, a random subset of them indexed; and {@code big} for IN
 * lists. Statements join 3 to 14 distinct tables (or as many as asked) as a star (a centre's columns to the others' keys or indexed
 * columns), a chain, a clique (every pair on {@code a}) or a random connected graph, under optimizer_prune_level
 * 0 for half of them (1 or 2 for the others) and optimizer_search_depth 62 for a quarter of them, else
 * 0 (automatic) or 3 to 7; and IN lists of
 * 1,000 to 50,000 values. The same seed gives the same schema and statements.
 */
final class RandomMariaDbCorpus {

    static final String DATABASE = "memogate_accuracy";
    static final int TABLES = 24;
    private static final String[] COLUMNS = {"a", "b", "c", "d", "e"};
    private static final int[] DEPTHS = {62, 62, 0, 3, 4, 5, 6, 7};

    private final Random random;
    private final OptimizerSettings base;
    private final List<Set<String>> indexed = new ArrayList<>();

    RandomMariaDbCorpus(long seed, OptimizerSettings base) {
        this.random = new Random(seed);
        this.base = base;
        for (int t = 0; t < TABLES; t++) {
            Set<String> columns = new HashSet<>();
            for (String column : COLUMNS) {
                if (random.nextDouble() < 0.5) {
                    columns.add(column);
                }
            }
            indexed.add(columns);
        }
    }

    /** Creates the database and its tables (after dropping what a run before left), filled and ANALYZEd. */
    void create(Connection connection) throws SQLException {
        Random rows = new Random(random.nextLong());
        try (Statement s = connection.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
            s.execute("CREATE DATABASE " + DATABASE);
            s.execute("USE " + DATABASE);
            for (int t = 1; t <= TABLES; t++) {
                Set<String> keys = indexed.get(t - 1);
                s.execute("CREATE TABLE t" + t + " (id INT PRIMARY KEY, " + String.join(" INT, ", COLUMNS) + " INT"
                        + keys.stream().sorted().map(c -> ", KEY (" + c + ")").collect(Collectors.joining()) + ")");
                long count = Math.round(Math.exp(Math.log(10) + rows.nextDouble() * (Math.log(5000) - Math.log(10))));
                String values = IntStream.range(0, COLUMNS.length)
                        .mapToObj(c -> "seq % " + (1 + rows.nextInt((int) Math.max(1, count))))
                        .collect(Collectors.joining(", "));
                s.execute("INSERT INTO t" + t + " SELECT seq, " + values + " FROM seq_1_to_" + count);
            }
            s.execute("CREATE TABLE big (id INT PRIMARY KEY, v INT, KEY (v))");
            s.execute("INSERT INTO big SELECT seq, seq % 1000 FROM seq_1_to_100000");
            s.execute("ANALYZE TABLE big, " + IntStream.rangeClosed(1, TABLES).mapToObj(t -> "t" + t)
                    .collect(Collectors.joining(", ")));
        }
    }

    void drop(Connection connection) throws SQLException {
        try (Statement s = connection.createStatement()) {
            s.execute("DROP DATABASE IF EXISTS " + DATABASE);
        }
    }

    /** {@code joins} join statements of {@code minTables} to {@code maxTables} tables and {@code lists} IN lists. */
    List<OptimizerCase> cases(int joins, int minTables, int maxTables, int lists) {
        List<OptimizerCase> cases = new ArrayList<>();
        for (int i = 0; i < joins; i++) {
            int n = minTables + random.nextInt(maxTables - minTables + 1);
            String shape = List.of("star", "chain", "clique", "random").get(random.nextInt(4));
            int prune = random.nextBoolean() ? 0 : 1 + random.nextInt(2); // half without pruning: the long searches
            int depth = DEPTHS[random.nextInt(DEPTHS.length)];
            List<Integer> tables = pick(n);
            String sql = switch (shape) {
                case "star" -> star(tables);
                case "chain" -> chain(tables);
                case "clique" -> clique(tables);
                default -> randomGraph(tables);
            };
            OptimizerSettings settings = base.with("optimizer_prune_level", Integer.toString(prune))
                    .with("optimizer_search_depth", Integer.toString(depth));
            cases.add(new OptimizerCase(String.format("%s %d, prune %d, depth %d #%d", shape, n, prune, depth, i), sql,
                    settings, true));
        }
        for (int i = 0; i < lists; i++) {
            int values = 1000 + random.nextInt(49_001);
            cases.add(new OptimizerCase("IN list of " + values, SyntheticJoins.inList(values), base, true));
        }
        return cases;
    }

    private List<Integer> pick(int n) {
        List<Integer> all = new ArrayList<>(IntStream.rangeClosed(1, TABLES).boxed().toList());
        java.util.Collections.shuffle(all, random);
        return all.subList(0, n);
    }

    /** A column of table {@code t} a join reaches: its key, or one of its columns (indexed or not). */
    private String target(int t) {
        List<String> choices = new ArrayList<>(List.of("id"));
        choices.addAll(List.of(COLUMNS));
        return "t" + t + "." + choices.get(random.nextInt(choices.size()));
    }

    private String column(int t) {
        return "t" + t + "." + COLUMNS[random.nextInt(COLUMNS.length)];
    }

    private static String from(List<Integer> tables) {
        return "SELECT count(*) FROM " + tables.stream().map(t -> "t" + t).collect(Collectors.joining(", "));
    }

    private String star(List<Integer> tables) {
        int centre = tables.getFirst();
        return from(tables) + " WHERE " + tables.subList(1, tables.size()).stream()
                .map(t -> column(centre) + " = " + target(t)).collect(Collectors.joining(" AND "));
    }

    private String chain(List<Integer> tables) {
        return from(tables) + " WHERE " + IntStream.range(1, tables.size())
                .mapToObj(i -> column(tables.get(i - 1)) + " = " + target(tables.get(i)))
                .collect(Collectors.joining(" AND "));
    }

    private static String clique(List<Integer> tables) {
        List<String> conditions = new ArrayList<>();
        for (int i = 0; i < tables.size(); i++) {
            for (int j = i + 1; j < tables.size(); j++) {
                conditions.add("t" + tables.get(i) + ".a = t" + tables.get(j) + ".a");
            }
        }
        return from(tables) + " WHERE " + String.join(" AND ", conditions);
    }

    /** A random spanning tree, and each other pair joined with probability 0.15. */
    private String randomGraph(List<Integer> tables) {
        List<String> conditions = new ArrayList<>();
        for (int i = 1; i < tables.size(); i++) {
            conditions.add(column(tables.get(random.nextInt(i))) + " = " + target(tables.get(i)));
        }
        for (int i = 0; i < tables.size(); i++) {
            for (int j = i + 1; j < tables.size(); j++) {
                if (random.nextDouble() < 0.15) {
                    conditions.add(column(tables.get(i)) + " = " + column(tables.get(j)));
                }
            }
        }
        return from(tables) + " WHERE " + String.join(" AND ", conditions);
    }
}
