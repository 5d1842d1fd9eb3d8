package io.memogate.estimator.mysql;

import java.util.stream.Collectors;
import java.util.stream.IntStream;

/**
 * The statement shapes MySQL's optimizer model is measured and calibrated on (bench/log/mysql-optimizer.md): a
 * clique of tables {@code s1..sN} every pair joined on column {@code a}, a star of fact table {@code f} joined to
 * {@code s1..s(N-1)} by their primary keys, a chain of {@code s1..sN} each joined to the next one's primary key,
 * and an IN list over table {@code big}. Each counts its rows, so that EXPLAIN and running it both answer.
 */
public final class SyntheticJoins {

    private SyntheticJoins() {
    }

    /** A clique of {@code n} tables named {@code s1..sN}. */
    public static String clique(int n) {
        return clique("s", n);
    }

    /** A clique of {@code n} tables named {@code prefix1..prefixN}, joined on their column {@code a}. */
    public static String clique(String prefix, int n) {
        String tables = IntStream.rangeClosed(1, n).mapToObj(i -> prefix + i).collect(Collectors.joining(", "));
        String conditions = IntStream.rangeClosed(1, n).boxed().flatMap(i -> IntStream.rangeClosed(i + 1, n)
                .mapToObj(j -> prefix + i + ".a = " + prefix + j + ".a")).collect(Collectors.joining(" AND "));
        return "SELECT count(*) FROM " + tables + " WHERE " + conditions;
    }

    /** {@code f} and {@code n - 1} dimension tables, joined from {@code f.dI} to {@code sI.id}. */
    public static String star(int n) {
        return "SELECT count(*) FROM f " + IntStream.range(1, n)
                .mapToObj(i -> "JOIN s" + i + " ON f.d" + i + " = s" + i + ".id").collect(Collectors.joining(" "));
    }

    /** {@code s1..sN}, each joined from its column {@code a} to the next one's primary key. */
    public static String chain(int n) {
        return "SELECT count(*) FROM s1 " + IntStream.rangeClosed(2, n)
                .mapToObj(i -> "JOIN s" + i + " ON s" + (i - 1) + ".a = s" + i + ".id").collect(Collectors.joining(" "));
    }

    /**
     * {@code n} tables {@code x1..xN}, aliases of {@code s1..sCycle} in turn, every pair joined on column
     * {@code a}: a single multiple equality of {@code n} columns, past the number of tables there are.
     */
    public static String aliasedClique(int n, int cycle) {
        return "SELECT count(*) FROM " + aliases(n, cycle) + " WHERE " + IntStream.rangeClosed(1, n).boxed()
                .flatMap(i -> IntStream.rangeClosed(i + 1, n).mapToObj(j -> "x" + i + ".a = x" + j + ".a"))
                .collect(Collectors.joining(" AND "));
    }

    /** {@code n} aliases as {@link #aliasedClique}, each joined from its column {@code a} to the next one's key. */
    public static String aliasedChain(int n, int cycle) {
        return "SELECT count(*) FROM " + aliases(n, cycle) + " WHERE " + IntStream.range(1, n)
                .mapToObj(i -> "x" + i + ".a = x" + (i + 1) + ".id").collect(Collectors.joining(" AND "));
    }

    private static String aliases(int n, int cycle) {
        return IntStream.rangeClosed(1, n).mapToObj(i -> "s" + ((i - 1) % cycle + 1) + " AS x" + i)
                .collect(Collectors.joining(", "));
    }

    /** {@code values} integers in an IN list over {@code big.v}. */
    public static String inList(int values) {
        return "SELECT count(*) FROM big WHERE v IN (" + IntStream.range(0, values).mapToObj(Integer::toString)
                .collect(Collectors.joining(",")) + ")";
    }
}
