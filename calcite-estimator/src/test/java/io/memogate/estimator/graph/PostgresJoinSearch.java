package io.memogate.estimator.graph;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A test oracle: PostgreSQL's standard_join_search / join_search_one_level
 * (src/backend/optimizer/path/joinrels.c) for inner joins, transcribed over bitmasks, counting its
 * make_join_rel calls, and for each call the clauses (as the graph keeps them: one per equivalence
 * class) with relations on both sides beyond the first. Slow (levels of lists), for graphs of a dozen
 * relations. With order restrictions, a pair that {@code join_is_legal} refuses ({@link JoinLegality#legal})
 * builds nothing and is not counted, as {@code make_join_rel} returns at once.
 */
final class PostgresJoinSearch {

    private final long[] adjacency;
    private final long[] clauses;
    private final long all;
    private final List<List<Long>> levels = new ArrayList<>();
    private long makeJoinRelCalls;
    private long extraClauses;
    private long crossingSquares;
    private long cartesianCalls;
    /** The join relations some call whose sides a clause or join filter links makes. */
    private final Set<Long> linkedBuilt = new HashSet<>();
    private final JoinLegality legality;
    private final JoinGraph graph;
    private long parameterizations;

    private PostgresJoinSearch(JoinGraph graph) {
        this.graph = graph;
        adjacency = new long[graph.size()];
        for (int v = 0; v < adjacency.length; v++) {
            adjacency[v] = graph.neighbourMask(v);
        }
        clauses = new long[graph.clauseCount()];
        for (int c = 0; c < clauses.length; c++) {
            for (int v : graph.clause(c)) {
                clauses[c] |= 1L << v;
            }
        }
        all = graph.size() == 64 ? -1L : (1L << graph.size()) - 1;
        legality = graph.restricted() ? new JoinLegality(graph.restrictions()) : null;
    }

    static long makeJoinRelCalls(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.makeJoinRelCalls;
    }

    /** Summed over the make_join_rel calls: the clauses linking the two sides, less one (none for a Cartesian one). */
    static long extraClauses(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.extraClauses;
    }

    /** Summed over the make_join_rel calls: the square of the clauses linking the two sides, less one. */
    static long crossingSquares(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.crossingSquares;
    }

    /** The join relations built: every level's relations from two on. */
    static long joinRelations(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.levels.stream().skip(2).mapToLong(List::size).sum();
    }

    /** The join relations made by at least one call whose sides a clause or join filter links. */
    static long linkedJoinRelations(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.linkedBuilt.size();
    }

    /** The make_join_rel calls whose sides no clause or join filter links. */
    static long cartesianPairs(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.cartesianCalls;
    }

    /**
     * Summed over the make_join_rel calls: the relations outside the join relation that an index scan inside it
     * can be parameterized by and that add_paths_to_joinrel keeps a parameterized join path for: a member of its
     * param_source_rels (every relation outside the right side of an outer or semi join whose right side the join
     * relation overlaps and whose left side it does not), or a star-schema parameter (allow_star_schema_join: of
     * a relation inside that two neighbours or more can parameterize, one of them inside).
     */
    static long parameterizations(JoinGraph graph) {
        PostgresJoinSearch search = new PostgresJoinSearch(graph);
        search.run();
        return search.parameterizations;
    }

    private long keptParameters(long joinRel) {
        long parameterizing = 0;
        long sources = 0;
        for (int v = 0; v < graph.size(); v++) {
            if ((joinRel & (1L << v)) != 0) {
                long parameters = graph.indexScanParameterMask(v);
                parameterizing |= parameters;
                if (Long.bitCount(parameters) > 1 && (parameters & joinRel) != 0) {
                    sources |= parameters;
                }
            }
        }
        for (OrderRestriction restriction : graph.restrictions()) {
            boolean holdsRight = false;
            boolean holdsLeft = false;
            long right = 0;
            for (int v : restriction.minRight()) {
                holdsRight |= (joinRel & (1L << v)) != 0;
                right |= 1L << v;
            }
            for (int v : restriction.minLeft()) {
                holdsLeft |= (joinRel & (1L << v)) != 0;
            }
            if (holdsRight && !holdsLeft) {
                sources |= all & ~right;
            }
        }
        return parameterizing & sources & ~joinRel;
    }

    private void run() {
        int n = adjacency.length;
        levels.add(List.of());
        List<Long> initial = new ArrayList<>();
        for (int v = 0; v < n; v++) {
            initial.add(1L << v);
        }
        levels.add(initial);
        for (int level = 2; level <= n; level++) {
            LinkedHashSet<Long> built = new LinkedHashSet<>();
            List<Long> previous = levels.get(level - 1);
            for (int r = 0; r < previous.size(); r++) {
                long old = previous.get(r);
                if (hasJoinClauses(old)) {
                    // level 2: "consider remaining initial rels"
                    int first = level == 2 ? r + 1 : 0;
                    for (int i = first; i < initial.size(); i++) {
                        long other = initial.get(i);
                        if ((old & other) == 0 && relevant(old, other)) {
                            makeJoinRel(old, other, built);
                        }
                    }
                } else {
                    clauseless(old, built);
                }
            }
            for (int k = 2; k <= level - k; k++) {
                List<Long> lower = levels.get(k);
                List<Long> upper = levels.get(level - k);
                for (int r = 0; r < lower.size(); r++) {
                    long old = lower.get(r);
                    if (!hasJoinClauses(old)) {
                        continue;
                    }
                    int first = k == level - k ? r + 1 : 0;
                    for (int i = first; i < upper.size(); i++) {
                        long other = upper.get(i);
                        if ((old & other) == 0 && relevant(old, other)) {
                            makeJoinRel(old, other, built);
                        }
                    }
                }
            }
            if (built.isEmpty()) {
                for (long old : previous) {
                    clauseless(old, built);
                }
            }
            levels.add(new ArrayList<>(built));
        }
    }

    private void clauseless(long old, LinkedHashSet<Long> built) {
        for (long other : levels.get(1)) {
            if ((old & other) == 0) {
                makeJoinRel(old, other, built);
            }
        }
    }

    private void makeJoinRel(long a, long b, LinkedHashSet<Long> built) {
        if (legality != null && !legality.legal(a, b)) {
            return;
        }
        makeJoinRelCalls++;
        long crossings = 0;
        for (long clause : clauses) {
            if ((clause & a) != 0 && (clause & b) != 0) {
                crossings++;
            }
        }
        extraClauses += Math.max(0, crossings - 1);
        parameterizations += Long.bitCount(keptParameters(a | b));
        crossingSquares += Math.max(0, crossings * crossings - 1);
        if (!relevant(a, b)) {
            cartesianCalls++;
        } else {
            linkedBuilt.add(a | b);
        }
        built.add(a | b);
    }

    /** joininfo != NIL || has_eclass_joins: some clause leads outside the relation. */
    private boolean hasJoinClauses(long rel) {
        return (neighbours(rel) & all & ~rel) != 0;
    }

    private boolean relevant(long a, long b) {
        return (neighbours(a) & b) != 0;
    }

    private long neighbours(long set) {
        long result = 0;
        for (long bits = set; bits != 0; bits &= bits - 1) {
            result |= adjacency[Long.numberOfTrailingZeros(bits)];
        }
        return result;
    }
}
