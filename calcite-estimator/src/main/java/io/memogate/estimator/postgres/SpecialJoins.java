package io.memogate.estimator.postgres;

import io.memogate.estimator.planner.JoinType;
import io.memogate.estimator.planner.Predicate;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The outer, semi and anti joins of one query block and the join order they allow: PostgreSQL's
 * {@code reduce_outer_joins} (src/backend/optimizer/prep/prepjointree.c) and {@code make_outerjoininfo}
 * (src/backend/optimizer/plan/initsplan.c), over the block's relations (leaf numbers).
 *
 * <p>A LEFT (or RIGHT) join becomes an inner join when a condition above it is strict on its nullable side:
 * a WHERE conjunct, or the condition of an inner or semi join, that references the nullable side and something
 * else. Every equality and comparison is strict; a condition inside the nullable side, the join's own, or an
 * upper outer join's (which does not filter its left side) does not reduce it.
 *
 * <p>What is left restricts the join order ({@link Restriction}): the join needs on its left the left relations
 * its condition references, and on its right those plus the right side's relations joined by inner joins
 * (a FROM list or an inner JOIN there, and a sub-link's whole FROM list). A lower outer join inside either
 * side is added to it when the two do not commute: an anti or semi join never does; two LEFT joins do by the
 * associativity identity of src/backend/optimizer/README ({@code (A leftjoin B on Pab) leftjoin C on Pbc = A
 * leftjoin (B leftjoin C on Pbc) on Pab}) when the upper condition, strict, references the lower's left side
 * and not its nullable side. Collected while the block's join tree is deconstructed, resolved once all its
 * predicates are known.
 */
final class SpecialJoins {

    /**
     * One join's restriction over leaf numbers.
     *
     * @param semi a semi join, whose whole right side may be made unique and joined as an inner join
     * @param minLeft the left relations the join needs
     * @param minRight the right relations the join needs
     * @param right the join's whole right side
     * @param anyOrder relations PostgreSQL joins in every combination, clause or not: an anti join's left side
     *     when its condition reads a lower LEFT join's nullable side (see {@link #resolve}); empty otherwise
     */
    record Restriction(boolean semi, BitSet minLeft, BitSet minRight, BitSet right, BitSet anyOrder) {
    }

    /** A join as written: its type, sides, inner-joined relations of its right side and conditions. */
    private record Pending(JoinType type, BitSet left, BitSet right, BitSet innerRight, List<Predicate> on) {
        boolean outer() {
            return type == JoinType.LEFT || type == JoinType.ANTI;
        }
    }

    private final List<Pending> pending = new ArrayList<>();

    /**
     * Records a join of {@code left} and {@code right} (leaf numbers; swapped already for RIGHT) unless it is an
     * inner, cross or FULL join (FULL is planned as a sub-problem of its own, see {@link JoinLists}).
     *
     * @param innerRight the relations of the right side joined there by inner joins
     */
    void add(JoinType type, BitSet left, BitSet right, BitSet innerRight, List<Predicate> on) {
        JoinType normal = type == JoinType.RIGHT ? JoinType.LEFT : type;
        if (normal == JoinType.LEFT || normal == JoinType.SEMI || normal == JoinType.ANTI) {
            pending.add(new Pending(normal, left, right, innerRight, on));
        }
    }

    /** Forgets the LEFT join whose nullable side is {@code leaf} alone: the join was removed. */
    void remove(int leaf) {
        pending.removeIf(join -> join.type() == JoinType.LEFT && join.right().cardinality() == 1
                && join.right().get(leaf));
    }

    /**
     * What the block's outer, semi and anti joins come to.
     *
     * @param restrictions the joins that stay outer, semi or anti, lower joins first
     * @param madeInner the conditions of the LEFT joins made inner (by identity): they filter like an inner join's
     */
    record Resolved(List<Restriction> restrictions, Set<Predicate> madeInner) {
    }

    /**
     * The restrictions and the joins made inner, once every predicate of the block is known.
     *
     * @param relationsOf a predicate's relations as leaf numbers
     */
    Resolved resolve(List<Predicate> predicates, Function<Predicate, BitSet> relationsOf) {
        // A LEFT join made inner filters like one: its own condition, strict, can then reduce the joins below it
        // (reduce_outer_joins passes an inner join's non-nullable relations down), so reduce until nothing changes.
        Set<Pending> inner = Collections.newSetFromMap(new IdentityHashMap<>());
        boolean more = true;
        while (more) {
            Set<Predicate> outerConditions = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Pending join : pending) {
                if (join.outer() && !inner.contains(join)) {
                    outerConditions.addAll(join.on());
                }
            }
            more = false;
            for (Pending join : pending) {
                if (join.type() == JoinType.LEFT && !inner.contains(join)
                        && reduced(join, predicates, outerConditions, relationsOf)) {
                    inner.add(join);
                    more = true;
                }
            }
        }
        Map<Pending, Restriction> made = new IdentityHashMap<>();
        List<Restriction> result = new ArrayList<>();
        for (Pending join : pending) {
            if (inner.contains(join)) {
                continue;
            }
            BitSet clause = new BitSet();
            join.on().forEach(p -> clause.or(relationsOf.apply(p)));
            BitSet minLeft = and(clause, join.left());
            BitSet minRight = and(or(clause, join.innerRight()), join.right());
            BitSet anyOrder = new BitSet();
            for (Map.Entry<Pending, Restriction> lower : made.entrySet()) {
                Restriction other = lower.getValue();
                Pending written = lower.getKey();
                boolean otherOuter = written.type() == JoinType.LEFT;
                if (contains(join.left(), other.right())) {
                    if (clause.intersects(other.right()) && join.type() == JoinType.ANTI && otherOuter) {
                        // make_outerjoininfo keeps the two in order by the lower join's whole syntactic sides, and
                        // PostgreSQL 18 then joins those relations in every combination, Cartesian products
                        // included: a chain of 4, 6, 8 and 10 tables, LEFT-joined to one more table that a NOT
                        // EXISTS reads, planned in 0.22, 1.6, 16 and 178 MB, as a clique of its size does.
                        minLeft.or(written.left());
                        minLeft.or(written.right());
                        anyOrder.or(written.left());
                        anyOrder.or(written.right());
                    } else if (clause.intersects(other.right()) && join.type() != JoinType.LEFT) {
                        minLeft.or(other.minLeft());
                        minLeft.or(other.minRight());
                    }
                } else if (contains(join.right(), other.right())) {
                    if (clause.intersects(other.right()) || !clause.intersects(other.minLeft())
                            || join.type() != JoinType.LEFT || !otherOuter) {
                        minRight.or(other.minLeft());
                        minRight.or(other.minRight());
                    }
                }
            }
            // make_outerjoininfo: nothing found makes the whole side the minimum.
            if (minLeft.isEmpty()) {
                minLeft = join.left();
            }
            if (minRight.isEmpty()) {
                minRight = join.right();
            }
            Restriction restriction = new Restriction(join.type() == JoinType.SEMI, minLeft, minRight, join.right(),
                    anyOrder);
            made.put(join, restriction);
            result.add(restriction);
        }
        Set<Predicate> madeInner = Collections.newSetFromMap(new IdentityHashMap<>());
        inner.forEach(join -> madeInner.addAll(join.on()));
        return new Resolved(result, Collections.unmodifiableSet(madeInner));
    }

    /** Whether a strict condition above {@code join} references its nullable side and something else. */
    private static boolean reduced(Pending join, List<Predicate> predicates, Set<Predicate> outerConditions,
                                   Function<Predicate, BitSet> relationsOf) {
        for (Predicate predicate : predicates) {
            if (outerConditions.contains(predicate)) {
                continue;
            }
            BitSet relations = relationsOf.apply(predicate);
            if (relations.intersects(join.right()) && !contains(join.right(), relations)) {
                return true;
            }
        }
        return false;
    }

    private static boolean contains(BitSet set, BitSet subset) {
        BitSet rest = (BitSet) subset.clone();
        rest.andNot(set);
        return rest.isEmpty();
    }

    private static BitSet and(BitSet a, BitSet b) {
        BitSet result = (BitSet) a.clone();
        result.and(b);
        return result;
    }

    private static BitSet or(BitSet a, BitSet b) {
        BitSet result = (BitSet) a.clone();
        result.or(b);
        return result;
    }
}
