package io.memogate.proxy.postgres.calibrate;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * Join shapes whose search sizes are known in closed form (chain, cycle, star, clique) plus snowflakes,
 * each once as written and once with a LIMIT (which PostgreSQL plans for its first rows, a term of its
 * own in the model), over temporary tables the calibration creates in its own session: the user's schema
 * is never touched and the tables go when the session ends.
 *
 * <p>The tables hold data, a primary key and indexes on the join columns, and the first one (a star's
 * centre) is a larger fact table with an index per arm, so that joins have parameterized index paths
 * and sorted orders to keep as real tables do: empty tables give every path the same cost, and a LIMIT
 * then adds nothing to measure (on the estimator's own warehouse tables a first-rows search cost 6-13
 * times as much per join pair as a plain one).
 *
 * <p>Sizes stay where planning is cheap under the widest settings (collapse limits and geqo_threshold
 * above the table count): a clique of 9 plans in about 20 MB and a star of 12 in about 30 MB, while a
 * clique of 14 took 5.3 GB and one of 16 got the server killed (docs/DESIGN.md). Calibration also skips
 * any statement whose estimate is over its --max-estimate, which guards these and the user's corpus alike.
 */
public final class SyntheticCorpus {

    static final int TABLES = 13;
    private static final String TABLE = "memogate_t";

    private SyntheticCorpus() {
    }

    /** The statements that create and fill the temporary tables. */
    public static List<String> setup() {
        List<String> sql = new ArrayList<>();
        String keys = IntStream.rangeClosed(1, TABLES).mapToObj(k -> "k" + k + " int").collect(Collectors.joining(", "));
        for (int i = 0; i < TABLES; i++) {
            String table = TABLE + i;
            // k1..k13 give a star's centre a column per arm: arms joined on one column would form one
            // equivalence class, which PostgreSQL plans as a clique.
            sql.add("create temporary table " + table + " (a int primary key, b int, c int, " + keys + ")");
            // The centre is a fact table: larger than the others, with an index per arm (foreign key).
            int rows = i == 0 ? 20_000 : 1_000;
            sql.add("insert into " + table + " select g, g % 100, g % 10, "
                    + IntStream.rangeClosed(1, TABLES).mapToObj(k -> "g % 1000").collect(Collectors.joining(", "))
                    + " from generate_series(1, " + rows + ") g");
            sql.add("create index on " + table + " (b)");
            sql.add("create index on " + table + " (c)");
            if (i == 0) {
                IntStream.rangeClosed(1, TABLES).forEach(k -> sql.add("create index on " + table + " (k" + k + ")"));
            }
            sql.add("analyze " + table);
        }
        return sql;
    }

    /** Every shape, with and without LIMIT. */
    public static List<CorpusStatement> statements() {
        List<CorpusStatement> shapes = new ArrayList<>();
        for (int n : new int[] {4, 8, 12}) {
            shapes.add(shape("chain-" + n, n, chain(n)));
        }
        for (int n : new int[] {6, 10, 13}) {
            List<String> cycle = chain(n);
            cycle.add(TABLE + (n - 1) + ".b = " + TABLE + "0.c");
            shapes.add(shape("cycle-" + n, n, cycle));
        }
        for (int n : new int[] {6, 8, 10, 12}) {
            shapes.add(shape("star-" + n, n,
                    IntStream.range(1, n).mapToObj(i -> TABLE + "0.k" + i + " = " + TABLE + i + ".a").toList()));
        }
        for (int n : new int[] {4, 6, 8, 9}) {
            List<String> clique = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    clique.add(TABLE + i + ".a = " + TABLE + j + ".a"); // one equivalence class joining every pair
                }
            }
            shapes.add(shape("clique-" + n, n, clique));
        }
        for (int arms : new int[] {3, 4, 6}) {
            // A fact table, `arms` dimensions, each with one sub-dimension: 1 + 2 x arms tables.
            List<String> joins = new ArrayList<>();
            for (int d = 1; d <= arms; d++) {
                joins.add(TABLE + "0.k" + d + " = " + TABLE + d + ".a");
                joins.add(TABLE + d + ".b = " + TABLE + (arms + d) + ".a");
            }
            shapes.add(shape("snowflake-" + arms, 1 + 2 * arms, joins));
        }
        List<CorpusStatement> all = new ArrayList<>();
        for (CorpusStatement s : shapes) {
            all.add(s);
            all.add(new CorpusStatement(s.name() + "-limit", s.sql() + " limit 10"));
        }
        return all;
    }

    private static List<String> chain(int n) {
        return new ArrayList<>(IntStream.range(1, n)
                .mapToObj(i -> TABLE + (i - 1) + ".b = " + TABLE + i + ".a").toList());
    }

    /** Rows, not count(*): an aggregate over the join would leave a LIMIT nothing to plan for. */
    private static CorpusStatement shape(String name, int n, List<String> predicates) {
        String from = IntStream.range(0, n).mapToObj(i -> TABLE + i).collect(Collectors.joining(", "));
        return new CorpusStatement(name, "select " + TABLE + "0.a from " + from + " where "
                + String.join(" and ", predicates));
    }
}
