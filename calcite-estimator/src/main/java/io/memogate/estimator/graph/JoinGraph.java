package io.memogate.estimator.graph;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.StringJoiner;

/**
 * The join graph of one join search problem: the relations (vertices {@code 0..n-1}, with names for
 * messages), the join clauses over them, and an undirected edge wherever a clause links two of them.
 * Immutable.
 *
 * <p><b>Clauses keep their identity.</b> Besides the edges the graph keeps each clause as the set of
 * relations it references: an equivalence class is one clause however many equalities made it, and
 * two clauses over the same two relations stay two (a join on a two-column key). The edges decide
 * which pairs a join search builds; the clauses decide how many join clauses link the two sides of a
 * pair, which is what PostgreSQL's merge-join path generation multiplies with (see
 * {@link MemoSize#extraClauses()}).
 *
 * <p><b>Clauses over three or more relations.</b> {@link Builder#addClause} records such a clause as an
 * edge between every pair of its relations. That is what PostgreSQL's join search enumerates:
 * {@code have_relevant_joinclause} (src/backend/optimizer/util/joininfo.c) finds a clause relevant to
 * a pair of relations when its relations <em>overlap</em> both sides, so {@code a.x + b.y = c.z} lets
 * PostgreSQL try {@code a⋈b}, {@code a⋈c} and {@code b⋈c}, although the clause itself is applied only
 * at a join containing all three. Counting the clique is therefore the count PostgreSQL pays for; were it
 * not, it would still be the conservative direction (more edges, more pairs). Equivalence classes
 * behave the same way ({@code have_relevant_eclass_joinclause} in equivclass.c), so callers add one
 * clause per class.
 *
 * <p><b>Join filters.</b> A clause that is not an equality ({@code a.x < b.y}, an OR over several
 * relations, {@code f(a.x, b.y)}) makes pairs like any other, but no merge or hash join can use it,
 * so it adds no join paths: {@link Builder#addJoinFilter} records its edges only, and it is not among
 * {@link #clause the clauses} that {@link MemoSize#extraClauses()} counts.
 *
 * <p><b>Index scans.</b> {@link Builder#markIndexScan} records that a relation can be scanned by an index
 * parameterized by a neighbour (an equality between them whose column on the relation's side leads one of
 * its indexes): PostgreSQL may then keep, for a join relation holding the first but not the second, paths
 * parameterized by the second ({@link MemoSize#parameterizations()}, where {@link ParameterSources} says when
 * it does). Without a catalog nothing is marked.
 *
 * <p><b>Order restrictions.</b> Outer, semi and anti joins limit which pairs PostgreSQL builds
 * ({@link OrderRestriction}); a graph without them is joined in any order its edges allow. They are applied
 * up to {@value #MASK_LIMIT} relations, beyond which the count is free (more pairs, never fewer).
 *
 * <p>Vertex sets are {@code long} bitmasks when {@code size() <= 64} ({@link #neighbourMask}); larger
 * graphs are still represented (adjacency as multi-word bitsets) so that they can be counted by
 * extrapolation rather than rejected.
 */
public final class JoinGraph {

    /** Largest graph whose vertex sets fit a {@code long}. */
    public static final int MASK_LIMIT = 64;

    private final List<String> names;
    private final long[][] adjacency;
    private final int edgeCount;
    /** Each clause as its distinct relations, ascending; every one has at least two. */
    private final int[][] clauses;
    /** Each join filter likewise: edges, but no clause that merge or hash joins use. */
    private final int[][] joinFilters;
    /** Per vertex, the neighbours an index scan of it can be parameterized by ({@link Builder#markIndexScan}). */
    private final long[][] indexScanParameters;
    private final List<OrderRestriction> restrictions;

    private JoinGraph(List<String> names, long[][] adjacency, int edgeCount, int[][] clauses, int[][] joinFilters,
                      long[][] indexScanParameters, List<OrderRestriction> restrictions) {
        this.names = names;
        this.adjacency = adjacency;
        this.edgeCount = edgeCount;
        this.clauses = clauses;
        this.joinFilters = joinFilters;
        this.indexScanParameters = indexScanParameters;
        this.restrictions = restrictions;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Number of relations (vertices). */
    public int size() {
        return names.size();
    }

    public String name(int vertex) {
        return names.get(vertex);
    }

    public List<String> names() {
        return names;
    }

    public int edgeCount() {
        return edgeCount;
    }

    /**
     * Number of clauses that merge and hash joins can use: equivalence classes and other equalities,
     * each counted once (see the class comment); join filters are not among them.
     */
    public int clauseCount() {
        return clauses.length;
    }

    /** The relations of clause {@code index}, ascending and distinct, at least two. */
    public int[] clause(int index) {
        return clauses[index].clone();
    }

    public boolean adjacent(int a, int b) {
        return (adjacency[a][b >>> 6] & (1L << b)) != 0;
    }

    public int degree(int vertex) {
        int degree = 0;
        for (long word : adjacency[vertex]) {
            degree += Long.bitCount(word);
        }
        return degree;
    }

    /** The neighbours of {@code vertex}, ascending. */
    public int[] neighbours(int vertex) {
        int[] result = new int[degree(vertex)];
        int i = 0;
        long[] words = adjacency[vertex];
        for (int w = 0; w < words.length; w++) {
            for (long bits = words[w]; bits != 0; bits &= bits - 1) {
                result[i++] = (w << 6) + Long.numberOfTrailingZeros(bits);
            }
        }
        return result;
    }

    /** Whether vertex sets of this graph fit a {@code long} bitmask. */
    public boolean fitsMask() {
        return size() <= MASK_LIMIT;
    }

    /**
     * The neighbours of {@code vertex} as a bitmask.
     *
     * @throws IllegalStateException if the graph has more than {@link #MASK_LIMIT} relations; check
     *     {@link #fitsMask()} first
     */
    public long neighbourMask(int vertex) {
        if (!fitsMask()) {
            throw new IllegalStateException("a join graph of " + size() + " relations has no long bitmasks");
        }
        return adjacency[vertex][0];
    }

    /**
     * The neighbours an index scan of {@code vertex} can be parameterized by, as a bitmask.
     *
     * @throws IllegalStateException if the graph has more than {@link #MASK_LIMIT} relations
     */
    public long indexScanParameterMask(int vertex) {
        if (!fitsMask()) {
            throw new IllegalStateException("a join graph of " + size() + " relations has no long bitmasks");
        }
        return indexScanParameters[vertex][0];
    }

    /** Whether an index scan of {@code vertex} can be parameterized by {@code neighbour}. */
    public boolean indexScannableBy(int vertex, int neighbour) {
        return (indexScanParameters[vertex][neighbour >>> 6] & (1L << neighbour)) != 0;
    }

    /** Whether any relation has an index scan parameterized by a neighbour. */
    public boolean hasIndexScans() {
        for (long[] words : indexScanParameters) {
            for (long word : words) {
                if (word != 0) {
                    return true;
                }
            }
        }
        return false;
    }

    /** The outer, semi and anti joins that restrict the join order; empty for inner joins only. */
    public List<OrderRestriction> restrictions() {
        return restrictions;
    }

    /** Whether PostgreSQL builds fewer pairs here than the edges allow ({@link #restrictions()} applied). */
    public boolean restricted() {
        return !restrictions.isEmpty() && fitsMask();
    }

    /** The connected components, each as ascending vertices, ordered by their smallest vertex. */
    public List<int[]> components() {
        int n = size();
        int[] component = new int[n];
        Arrays.fill(component, -1);
        List<int[]> result = new ArrayList<>();
        int[] stack = new int[n];
        for (int start = 0; start < n; start++) {
            if (component[start] >= 0) {
                continue;
            }
            int id = result.size();
            int top = 0;
            int count = 0;
            stack[top++] = start;
            component[start] = id;
            while (top > 0) {
                int v = stack[--top];
                count++;
                for (int w : neighbours(v)) {
                    if (component[w] < 0) {
                        component[w] = id;
                        stack[top++] = w;
                    }
                }
            }
            int[] members = new int[count];
            for (int v = start, i = 0; i < count; v++) {
                if (component[v] == id) {
                    members[i++] = v;
                }
            }
            result.add(members);
        }
        return result;
    }

    public boolean isConnected() {
        return size() <= 1 || components().size() == 1;
    }

    /**
     * The subgraph induced by {@code vertices}; vertex {@code i} of the result is {@code vertices[i]}
     * of this graph, so callers choose the numbering. Each clause keeps the relations it has among
     * {@code vertices}, and is dropped when fewer than two remain; a restriction keeps the relations it has
     * among them, and is dropped when a side has none.
     */
    public JoinGraph induced(int[] vertices) {
        Builder builder = builder();
        int[] position = new int[size()];
        Arrays.fill(position, -1);
        for (int v : vertices) {
            position[v] = builder.addRelation(name(v));
        }
        for (int[] clause : clauses) {
            builder.addClause(inducedRelations(clause, position));
        }
        for (int[] filter : joinFilters) {
            builder.addJoinFilter(inducedRelations(filter, position));
        }
        for (int v : vertices) {
            for (int w : vertices) {
                if (indexScannableBy(v, w)) {
                    builder.markIndexScan(position[v], position[w]);
                }
            }
        }
        for (OrderRestriction restriction : restrictions) {
            OrderRestriction mapped = restriction.mapped(position);
            if (mapped != null) {
                builder.restrictions.add(mapped);
            }
        }
        return builder.build();
    }

    private static List<Integer> inducedRelations(int[] relations, int[] position) {
        return Arrays.stream(relations).map(v -> position[v]).filter(p -> p >= 0).boxed().toList();
    }

    @Override
    public String toString() {
        StringJoiner edges = new StringJoiner(", ");
        for (int v = 0; v < size() && edges.length() < 200; v++) {
            for (int w : neighbours(v)) {
                if (w > v) {
                    edges.add(name(v) + "-" + name(w));
                }
            }
        }
        return "JoinGraph[" + size() + " relations, " + edgeCount + " edges, " + clauses.length + " clauses: " + edges
                + "]";
    }

    /** Collects relations and clauses; relations are numbered in the order they are added. */
    public static final class Builder {
        private final List<String> names = new ArrayList<>();
        private final List<int[]> clauses = new ArrayList<>();
        private final List<int[]> joinFilters = new ArrayList<>();
        private final List<int[]> indexScans = new ArrayList<>();
        private final List<OrderRestriction> restrictions = new ArrayList<>();

        private Builder() {
        }

        /** Adds a relation and returns its vertex number. */
        public int addRelation(String name) {
            names.add(Objects.requireNonNull(name, "name"));
            return names.size() - 1;
        }

        /**
         * A clause between two relations; called twice, two clauses. A clause over one relation is a
         * filter, not an edge: ignored.
         */
        public Builder addJoin(int a, int b) {
            return addClause(List.of(a, b));
        }

        /**
         * One clause (or equivalence class) over any number of relations: an edge between every pair
         * of them (see the class comment). Fewer than two distinct relations: a filter, ignored.
         */
        public Builder addClause(Collection<Integer> relations) {
            return add(relations, clauses);
        }

        /**
         * A clause that links its relations (an edge between every pair of them) but that no merge or
         * hash join can use (see the class comment). Fewer than two distinct relations: ignored.
         */
        public Builder addJoinFilter(Collection<Integer> relations) {
            return add(relations, joinFilters);
        }

        /**
         * {@code vertex} can be scanned by an index parameterized by {@code neighbour}: they share an
         * equality whose column on {@code vertex}'s side leads an index (see the class comment). Takes
         * effect only where the two are linked.
         */
        public Builder markIndexScan(int vertex, int neighbour) {
            check(vertex);
            check(neighbour);
            if (vertex != neighbour) {
                indexScans.add(new int[] {vertex, neighbour});
            }
            return this;
        }

        /** An outer, semi or anti join over relations already added (see the class comment). */
        public Builder restrict(OrderRestriction restriction) {
            for (int[] side : new int[][] {restriction.minLeft(), restriction.minRight(), restriction.synRight()}) {
                for (int v : side) {
                    check(v);
                }
            }
            restrictions.add(restriction);
            return this;
        }

        private Builder add(Collection<Integer> relations, List<int[]> into) {
            int[] distinct = relations.stream().mapToInt(Integer::intValue).distinct().sorted().toArray();
            for (int v : distinct) {
                check(v);
            }
            if (distinct.length >= 2) {
                into.add(distinct);
            }
            return this;
        }

        public JoinGraph build() {
            int n = names.size();
            int words = (n + 63) >>> 6;
            long[][] adjacency = new long[n][words];
            int edges = 0;
            for (int[] clause : concat(clauses, joinFilters)) {
                for (int i = 0; i < clause.length; i++) {
                    for (int j = i + 1; j < clause.length; j++) {
                        int a = clause[i];
                        int b = clause[j];
                        if ((adjacency[a][b >>> 6] & (1L << b)) == 0) {
                            adjacency[a][b >>> 6] |= 1L << b;
                            adjacency[b][a >>> 6] |= 1L << a;
                            edges++;
                        }
                    }
                }
            }
            long[][] indexScanParameters = new long[n][words];
            for (int[] scan : indexScans) {
                int v = scan[0];
                int w = scan[1];
                if ((adjacency[v][w >>> 6] & (1L << w)) != 0) {
                    indexScanParameters[v][w >>> 6] |= 1L << w;
                }
            }
            return new JoinGraph(List.copyOf(names), adjacency, edges, clauses.toArray(int[][]::new),
                    joinFilters.toArray(int[][]::new), indexScanParameters, List.copyOf(restrictions));
        }

        private static List<int[]> concat(List<int[]> a, List<int[]> b) {
            List<int[]> all = new ArrayList<>(a);
            all.addAll(b);
            return all;
        }

        private void check(int vertex) {
            if (vertex < 0 || vertex >= names.size()) {
                throw new IndexOutOfBoundsException("no relation " + vertex + " among " + names.size());
            }
        }
    }
}
