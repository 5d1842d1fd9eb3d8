package io.memogate.estimator.graph;

import java.util.List;
import java.util.Random;

/** The regular join-graph shapes of Moerkotte &amp; Neumann (VLDB 2006), with their closed forms. */
enum Shapes {
    CHAIN {
        @Override
        void join(JoinGraph.Builder b, int n) {
            for (int i = 1; i < n; i++) {
                b.addJoin(i - 1, i);
            }
        }

        @Override
        double pairs(int n) {
            return ((double) n * n * n - n) / 6;
        }
    },
    CYCLE {
        @Override
        void join(JoinGraph.Builder b, int n) {
            CHAIN.join(b, n);
            b.addJoin(n - 1, 0);
        }

        @Override
        double pairs(int n) {
            return ((double) n * n * n - 2.0 * n * n + n) / 2;
        }
    },
    STAR {
        @Override
        void join(JoinGraph.Builder b, int n) {
            for (int i = 1; i < n; i++) {
                b.addJoin(0, i);
            }
        }

        @Override
        double pairs(int n) {
            return (n - 1) * Math.pow(2, n - 2);
        }
    },
    CLIQUE {
        @Override
        void join(JoinGraph.Builder b, int n) {
            for (int i = 0; i < n; i++) {
                for (int j = i + 1; j < n; j++) {
                    b.addJoin(i, j);
                }
            }
        }

        @Override
        double pairs(int n) {
            return (Math.pow(3, n) - Math.pow(2, n + 1) + 1) / 2;
        }
    };

    abstract void join(JoinGraph.Builder builder, int n);

    /** Unordered csg-cmp pairs, the closed form. */
    abstract double pairs(int n);

    JoinGraph graph(int n) {
        return builder(n).build();
    }

    /** The shape's builder, for more clauses or marks before it is built. */
    JoinGraph.Builder builder(int n) {
        JoinGraph.Builder builder = relations(n);
        join(builder, n);
        return builder;
    }

    static Shapes named(String name) {
        return valueOf(name.toUpperCase(java.util.Locale.ROOT));
    }

    /** A builder holding relations t0..t(n-1). */
    static JoinGraph.Builder relations(int n) {
        JoinGraph.Builder builder = JoinGraph.builder();
        for (int i = 0; i < n; i++) {
            builder.addRelation("t" + i);
        }
        return builder;
    }

    /**
     * A random tree over t0..t(n-1), each relation joined to an earlier one, and with {@code cycles} up to
     * {@code n - 1} more random edges closing cycles.
     */
    static JoinGraph.Builder randomTree(Random random, int n, boolean cycles) {
        JoinGraph.Builder builder = relations(n);
        for (int v = 1; v < n; v++) {
            builder.addJoin(random.nextInt(v), v);
        }
        if (cycles) {
            for (int extra = random.nextInt(n); extra > 0; extra--) {
                int a = random.nextInt(n);
                int b = random.nextInt(n);
                if (a != b) {
                    builder.addJoin(a, b);
                }
            }
        }
        return builder;
    }

    /** A graph over t0..t(n-1) with the given edges. */
    static JoinGraph edges(int n, List<int[]> edges) {
        JoinGraph.Builder builder = relations(n);
        edges.forEach(e -> builder.addJoin(e[0], e[1]));
        return builder.build();
    }
}
