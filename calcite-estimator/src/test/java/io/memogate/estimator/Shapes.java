package io.memogate.estimator;

import java.util.ArrayList;
import java.util.List;

/** Join shapes written as SQL: tables t0..t(n-1), join clauses as WHERE equalities on distinct columns. */
final class Shapes {

    private Shapes() {
    }

    static String chain(int n) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i + 1 < n; i++) {
            p.add(eq(i, i + 1));
        }
        return select(n, p);
    }

    static String cycle(int n) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            p.add(eq(i, (i + 1) % n));
        }
        return select(n, p);
    }

    static String star(int n) {
        List<String> p = new ArrayList<>();
        for (int i = 1; i < n; i++) {
            p.add(eq(0, i));
        }
        return select(n, p);
    }

    static String clique(int n) {
        List<String> p = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            for (int j = i + 1; j < n; j++) {
                p.add(eq(i, j));
            }
        }
        return select(n, p);
    }

    /** {@code t0.c1 = t1.c0}: a column per partner, so no two clauses share an equivalence class. */
    private static String eq(int a, int b) {
        return "t" + a + ".c" + b + " = t" + b + ".c" + a;
    }

    static String from(int n) {
        List<String> tables = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            tables.add("t" + i);
        }
        return String.join(", ", tables);
    }

    private static String select(int n, List<String> predicates) {
        return "SELECT * FROM " + from(n) + (predicates.isEmpty() ? "" : " WHERE " + String.join(" AND ", predicates));
    }

    static long chainPairs(int n) {
        return ((long) n * n * n - n) / 6;
    }

    static long cyclePairs(int n) {
        return ((long) n * n * n - 2L * n * n + n) / 2;
    }

    static long starPairs(int n) {
        return (n - 1L) << (n - 2);
    }

    static long cliquePairs(int n) {
        return (pow(3, n) - (1L << (n + 1)) + 1) / 2;
    }

    private static long pow(long b, int e) {
        long r = 1;
        for (int i = 0; i < e; i++) {
            r *= b;
        }
        return r;
    }
}
