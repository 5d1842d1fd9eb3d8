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
 * 1,000 to 50,000 values. Most of those searches take a millisecond or run past any sane limit, so the corpus can
 * add long searches ({@link #longSearch}): joins without pruning whose size, for their shape and search depth, puts
 * MariaDB's search between about 100 ms and a few seconds on these tables, the range where admission decides and
 * where the accuracy goal is stated. The same seed gives the same schema and statements.
 */
final class RandomMariaDbCorpus {

    static final String DATABASE = "memogate_accuracy";
    static final int TABLES = 24;
    private static final String[] COLUMNS = {"a", "b", "c", "d", "e"};
    private static final int[] DEPTHS = {62, 62, 0, 3, 4, 5, 6, 7};
    private static final String[] SHAPES = {"star", "chain", "clique", "random"};

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

    /**
     * {@code joins} join statements of {@code minTables} to {@code maxTables} tables, {@code longSearches} long
     * searches and {@code lists} IN lists.
     */
    List<OptimizerCase> cases(int joins, int minTables, int maxTables, int longSearches, int lists) {
        List<OptimizerCase> cases = new ArrayList<>();
        for (int i = 0; i < joins; i++) {
            int n = minTables + random.nextInt(maxTables - minTables + 1);
            String shape = SHAPES[random.nextInt(SHAPES.length)];
            int prune = random.nextBoolean() ? 0 : 1 + random.nextInt(2); // half without pruning: the long searches
            int depth = DEPTHS[random.nextInt(DEPTHS.length)];
            cases.add(join(shape, n, prune, depth, "#" + i));
        }
        for (int i = 0; i < longSearches; i++) {
            cases.add(longSearch("long #" + i));
        }
        for (int i = 0; i < lists; i++) {
            int values = 1000 + random.nextInt(49_001);
            cases.add(new OptimizerCase("IN list of " + values, SyntheticJoins.inList(values), base, true));
        }
        return cases;
    }

    /**
     * A join without pruning sized to search for about 100 ms to a few seconds on these tables. The bands were
     * read off a first run of 40 such joins (bench/log/mysql-optimizer.md): with the full search depth, cliques
     * of 9 tables took 0.09-0.11 s, stars of 11 0.05-4.4 s and of 12 past 8 s, chains of 10-12 0.06-0.28 s,
     * random graphs of 10-12 from 9 ms to past 8 s; with depths of 4-6 every shape but the clique stayed under
     * 13 ms up to 24 tables, the cost bound cutting each step's look-ahead short, and a 16-clique at depth 6
     * took 45 ms. So: the full search over the bands below, or a large clique searched 6 or 7 tables deep.
     */
    private OptimizerCase longSearch(String label) {
        int kind = random.nextInt(SHAPES.length + 1);
        if (kind == SHAPES.length) {
            int depth = 6 + random.nextInt(2);
            int n = depth == 6 ? 18 + random.nextInt(7) : 14 + random.nextInt(7);
            return join("clique", n, 0, depth, label);
        }
        String shape = SHAPES[kind];
        int[] band = switch (shape) {
            case "clique" -> new int[] {9, 10};
            case "star" -> new int[] {10, 11};
            case "chain" -> new int[] {11, 13};
            default -> new int[] {10, 12};
        };
        int n = band[0] + random.nextInt(band[1] - band[0] + 1);
        return join(shape, n, 0, 62, label);
    }

    private OptimizerCase join(String shape, int n, int prune, int depth, String label) {
        List<Integer> tables = pick(n);
        String sql = switch (shape) {
            case "star" -> star(tables);
            case "chain" -> chain(tables);
            case "clique" -> clique(tables);
            default -> randomGraph(tables);
        };
        OptimizerSettings settings = base.with("optimizer_prune_level", Integer.toString(prune))
                .with("optimizer_search_depth", Integer.toString(depth));
        return new OptimizerCase(String.format("%s %d, prune %d, depth %d %s", shape, n, prune, depth, label), sql,
                settings, true);
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
