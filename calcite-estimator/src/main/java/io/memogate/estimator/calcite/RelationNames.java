package io.memogate.estimator.calcite;

import java.util.HashSet;
import java.util.Set;

/**
 * The relation names of one statement, made unique over it ({@code a}, {@code a#2}): a pulled-up sub-select's,
 * view's or CTE's relations join the outer block's, and two of them under one alias must stay two relations.
 */
final class RelationNames {

    private final Set<String> used = new HashSet<>();

    /** {@code alias}, or the first of {@code alias#2}, {@code alias#3}, ... not yet given out. */
    String unique(String alias) {
        String name = alias;
        for (int k = 2; !used.add(name); k++) {
            name = alias + "#" + k;
        }
        return name;
    }
}
