package io.memogate.estimator.lexer;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Property: for generated queries whose relations are known by construction, the bound is never below that
 * number, and above it only by the derived tables (a sub-query in FROM counts itself too). The generator
 * mixes in what puts FROM, commas and clause words where there is no FROM list: EXTRACT and SUBSTRING,
 * IS DISTINCT FROM, key words as names after a dot and as aliases, sub-queries in the select list and in
 * WHERE, GROUP BY and ORDER BY lists, set operations, CTEs, UPDATE ... FROM and INSERT ... SELECT.
 */
class RelationBoundPropertyTest {

    private static final String[] JOINS = {" join ", " left outer join ", " inner join ", " full join "};
    /** Unreserved key words among them; not "within", which before GROUP BY over-counts by design. */
    private static final String[] ALIASES = {"a", "b", "t", "x1", "rows", "set", "delete", "key"};

    private final Random random = new Random(42);

    /** Text built up with the relations it names and the derived tables among them. */
    private static final class Sql {
        final StringBuilder text = new StringBuilder();
        int relations;
        int derived;

        Sql append(Object part) {
            text.append(part);
            return this;
        }

        Sql append(Sql part) {
            text.append(part.text);
            relations += part.relations;
            derived += part.derived;
            return this;
        }
    }

    @Test
    void theBoundCoversEveryGeneratedQuery() {
        for (int round = 0; round < 3000; round++) {
            Sql q = statement(random.nextInt(3));
            int bound = PostgresLexing.bound(q.text.toString()).relations();
            assertThat(bound).as("%s", q.text).isBetween(q.relations, q.relations + q.derived);
        }
    }

    private Sql statement(int depth) {
        Sql q = new Sql();
        switch (random.nextInt(5)) {
            case 0 -> {
                q.append("insert into target (a, b) ").append(select(depth));
                q.relations++;
            }
            case 1 -> {
                q.append("update upd as u set a = 1, b = f(2, 3) from ").append(fromList(depth))
                        .append(" where ").append(condition(depth));
                q.relations++;
            }
            case 2 -> {
                q.append("with c1 as (").append(select(depth)).append("), c2 as (").append(select(depth))
                        .append(") select * from c1").append(random.nextBoolean() ? ", c2" : " join c2 on true");
                q.relations += 2;
            }
            default -> q.append(select(depth));
        }
        return q;
    }

    private Sql select(int depth) {
        Sql q = new Sql().append("select ").append(selectList(depth)).append(" from ").append(fromList(depth));
        if (random.nextBoolean()) {
            q.append(" where ").append(condition(depth));
        }
        if (random.nextInt(3) == 0) {
            q.append(" group by a, b having count(*) > 1 order by a, b desc limit 10");
        }
        if (random.nextInt(4) == 0) {
            q.append(random.nextBoolean() ? " union all " : " except ").append(select(Math.max(0, depth - 1)));
        }
        return q;
    }

    private Sql selectList(int depth) {
        Sql q = new Sql().append("a.x, t.where, extract(year from d), substring(s from 2 for 3), "
                + "percentile_cont(0.5) within group (order by v)");
        if (depth > 0 && random.nextBoolean()) {
            q.append(", (").append(select(depth - 1)).append(") as sub");
        }
        return q.append(", case when x is distinct from y then 1 else 2 end");
    }

    private Sql fromList(int depth) {
        Sql q = fromItem(depth);
        for (int i = random.nextInt(4); i > 0; i--) {
            if (random.nextBoolean()) {
                q.append(", ").append(fromItem(depth));
            } else {
                q.append(JOINS[random.nextInt(JOINS.length)]).append(fromItem(depth))
                        .append(" on a.set = b.set and a.x in (1, 2) and a.y is distinct from b.y");
            }
        }
        return q;
    }

    private Sql fromItem(int depth) {
        Sql q = new Sql();
        switch (random.nextInt(depth > 0 ? 7 : 5)) {
            case 0, 1 -> q.append("tab ").append(alias());
            case 2 -> q.append("generate_series(1, 10) ").append(alias());
            case 3 -> q.append("(values (1, 2), (3, 4)) ").append(alias()).append("(a, b)");
            case 4 -> q.append("only s.tab as ").append(alias());
            default -> {
                q.append(random.nextBoolean() ? "lateral (" : "(").append(select(depth - 1)).append(") ")
                        .append(alias());
                q.derived++;
            }
        }
        q.relations++;
        return q;
    }

    private Sql condition(int depth) {
        Sql q = new Sql().append("a.x = 1 and t.from is not distinct from 2");
        if (depth > 0 && random.nextBoolean()) {
            q.append(random.nextBoolean() ? " and a.y in (" : " or exists (").append(select(depth - 1)).append(")");
        }
        return q;
    }

    private String alias() {
        return ALIASES[random.nextInt(ALIASES.length)];
    }
}
