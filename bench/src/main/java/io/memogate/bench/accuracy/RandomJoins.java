package io.memogate.bench.accuracy;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * A seeded random corpus over {@link SyntheticDatabase}'s tables: join graphs written with JOIN ... ON,
 * LEFT JOIN and comma joins, with EXISTS, NOT EXISTS and IN (SELECT ...) sub-queries at random depths,
 * CTEs, UNION ALL and LATERAL sub-selects. It exercises what restricts PostgreSQL's join order (outer joins'
 * nullable sides, the semi and anti joins of pulled-up sub-links) against the same relations joined freely.
 *
 * <p>Every relation is an alias {@code tN} of a random table; a relation's parent joins it on its own column
 * ({@code tP.kN = tN.id}) and an extra edge closing a cycle on another ({@code tA.kB = tB.kA}), so each edge is
 * its own equivalence class and a shape is planned as the shape it is. A statement holds at most
 * {@value #MAX_RELATIONS} relations in one block, so that with wide collapse limits its planning stays well
 * inside the governor's host.
 */
final class RandomJoins {

    static final int MAX_RELATIONS = 13;

    private final Random random;
    private int nextAlias;

    private RandomJoins(long seed) {
        random = new Random(seed);
    }

    /** {@code count} statements drawn from {@code seed}; the same seed gives the same corpus. */
    static List<Corpus.Member> statements(long seed, int count) {
        RandomJoins generator = new RandomJoins(seed);
        List<Corpus.Member> members = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            generator.nextAlias = 0;
            members.add(generator.statement(i));
        }
        return members;
    }

    private Corpus.Member statement(int index) {
        int kind = random.nextInt(10);
        String sql;
        String id;
        if (kind == 0) {
            id = "cte";
            int n = 2 + random.nextInt(4);
            String cte = select(n, 0, List.of(), true);
            String main = select(4 + random.nextInt(6), 1, List.of(), false)
                    .replaceFirst("FROM s(\\d+) t(\\d+)", "FROM c JOIN s$1 t$2 ON c.id = t$2.id");
            sql = "WITH c AS " + (random.nextBoolean() ? "MATERIALIZED " : "") + "(" + cte + ") " + main;
        } else if (kind == 1) {
            id = "union";
            sql = select(4 + random.nextInt(7), 1, List.of(), false) + " UNION ALL "
                    + select(4 + random.nextInt(7), 1, List.of(), false);
        } else {
            id = "join";
            sql = select(5 + random.nextInt(MAX_RELATIONS - 7), 2, List.of(), false);
        }
        return new Corpus.Member(String.format("r%03d-%s%s", index, id, features(sql)), sql);
    }

    /**
     * One SELECT of {@code n} relations (and those of its sub-queries) whose sub-queries nest at most
     * {@code depth} deep, with {@code correlation} among its WHERE conditions; a CTE's body returns an id.
     */
    private String select(int n, int depth, List<String> correlation, boolean cte) {
        int first = nextAlias;
        StringBuilder from = new StringBuilder(table());
        List<String> where = new ArrayList<>(correlation);
        // An ON condition (and a LATERAL sub-select) sees only the JOIN tree it is in: the items since the last comma.
        int visible = 0;
        for (int k = 1; k < n; k++) {
            int alias = nextAlias;
            boolean comma = k >= 2 && random.nextInt(10) == 0;
            int parent = comma ? first + random.nextInt(k) : first + visible + random.nextInt(k - visible);
            String on = "t" + parent + ".k" + (alias % SyntheticDatabase.TABLES) + " = t" + alias + ".id";
            if (k >= 2 && random.nextInt(5) == 0) {
                int other = comma ? first + random.nextInt(k) : first + visible + random.nextInt(k - visible);
                if (other != parent) {
                    on += " AND " + cross(other, alias);
                }
            }
            if (comma) {
                from.append(", ").append(table());
                where.add(on);
                visible = k;
            } else if (random.nextInt(10) < 3) {
                from.append(" LEFT JOIN ").append(table()).append(" ON ").append(on);
            } else {
                from.append(" JOIN ").append(table()).append(" ON ").append(on);
            }
        }
        if (random.nextInt(6) == 0) {
            int outer = first + visible + random.nextInt(n - visible);
            String lateral = "t" + nextAlias;
            from.append(" LEFT JOIN LATERAL (SELECT ").append(lateral).append(".id FROM ").append(table())
                    .append(" WHERE ").append(lateral).append(".k1 = t").append(outer).append(".id ORDER BY ")
                    .append(lateral).append(".id LIMIT 1) l").append(outer).append(" ON true");
        }
        int subqueries = depth == 0 ? 0 : random.nextInt(3);
        for (int s = 0; s < subqueries; s++) {
            where.add(subquery(first + random.nextInt(n), depth - 1));
        }
        String select = cte ? "SELECT t" + first + ".id" : "SELECT count(*)";
        return select + " FROM " + from + (where.isEmpty() ? "" : " WHERE " + String.join(" AND ", where));
    }

    /** EXISTS, NOT EXISTS or IN over a sub-select of 1-3 relations correlated with (or testing) {@code outer}. */
    private String subquery(int outer, int depth) {
        int n = 1 + random.nextInt(3);
        int first = nextAlias;
        int kind = random.nextInt(3);
        if (kind == 2) {
            String body = select(n, depth, List.of(), false);
            return "t" + outer + ".id IN (" + body.replaceFirst("SELECT count\\(\\*\\)", "SELECT t" + first + ".k0") + ")";
        }
        String link = "t" + first + ".k" + (outer % SyntheticDatabase.TABLES) + " = t" + outer + ".id";
        String body = select(n, depth, List.of(link), false);
        return (kind == 0 ? "EXISTS (" : "NOT EXISTS (") + body.replaceFirst("SELECT count\\(\\*\\)", "SELECT 1") + ")";
    }

    /** What restricts the join order in {@code sql}, for the report's reader. */
    private static String features(String sql) {
        StringBuilder tags = new StringBuilder();
        if (sql.contains(" LEFT JOIN s")) {
            tags.append("-left");
        }
        if (sql.contains("NOT EXISTS")) {
            tags.append("-anti");
        }
        if (sql.replace("NOT EXISTS", "").contains("EXISTS")) {
            tags.append("-exists");
        }
        if (sql.contains(".id IN (")) {
            tags.append("-in");
        }
        if (sql.contains("LATERAL")) {
            tags.append("-lateral");
        }
        return tags.toString();
    }

    private String table() {
        int alias = nextAlias++;
        return "s" + random.nextInt(SyntheticDatabase.TABLES) + " t" + alias;
    }

    private static String cross(int a, int b) {
        return "t" + a + ".k" + (b % SyntheticDatabase.TABLES) + " = t" + b + ".k" + (a % SyntheticDatabase.TABLES);
    }
}
