package io.memogate.bench.storm.mariadb;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.SplittableRandom;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * What the MariaDB storm's heavy clients send, over the demo warehouse. Two kinds cost MariaDB's optimizer:
 * <ul>
 * <li>an ad-hoc report with pruning off: a star join of the planner lab's hub and 9 or 10 arms picked at random
 *     under {@code SET STATEMENT optimizer_prune_level = 0}, whose join-order search takes seconds of CPU (1 s at
 *     10 tables, 4-8 s at 11 on a 2-vCPU machine) and hardly any memory;</li>
 * <li>an ORM-sized IN list: the sales of a few hundred thousand customer ids, whose parse and range analysis
 *     take about 280 bytes of server memory per value, and little time.</li>
 * </ul>
 * Each is bounded by {@code max_statement_time}, as the MariaDB driver's query timeout bounds it, so a search
 * that cannot finish ends with ERROR 1969 instead of holding a CPU for minutes.
 */
final class HeavyStatements {

    enum Kind { REPORT, IN_LIST }

    private static final int ARMS = 19;

    private final int inListValues;
    private final int boundSeconds;

    HeavyStatements(int inListValues, int boundSeconds) {
        this.inListValues = inListValues;
        this.boundSeconds = boundSeconds;
    }

    String next(Kind kind, SplittableRandom random) {
        return kind == Kind.REPORT ? report(random) : inList(random);
    }

    private String report(SplittableRandom random) {
        List<Integer> arms = new ArrayList<>(IntStream.rangeClosed(1, ARMS).boxed().toList());
        Collections.shuffle(arms, new Random(random.nextLong()));
        int joined = 9 + random.nextInt(2);
        String joins = arms.subList(0, joined).stream()
                .map(a -> " JOIN lab_arm" + a + " AS a" + a + " ON a" + a + ".id = h.k" + a)
                .collect(Collectors.joining());
        return "SET STATEMENT optimizer_prune_level = 0, max_statement_time = " + boundSeconds
                + " FOR SELECT count(*) FROM lab_hub AS h" + joins + " WHERE h.k1 > " + random.nextInt(5);
    }

    private String inList(SplittableRandom random) {
        StringBuilder sql = new StringBuilder(inListValues * 8 + 120)
                .append("SET STATEMENT max_statement_time = ").append(boundSeconds)
                .append(" FOR SELECT count(*) FROM sales WHERE customer_id IN (");
        for (int i = 0; i < inListValues; i++) {
            sql.append(i == 0 ? "" : ",").append(1 + random.nextInt(1_000_000));
        }
        return sql.append(')').toString();
    }
}
