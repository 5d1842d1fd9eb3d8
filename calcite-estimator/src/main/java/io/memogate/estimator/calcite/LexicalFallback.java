package io.memogate.estimator.calcite;

import io.memogate.estimator.lexer.Keyword;
import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.lexer.TokenStream;
import io.memogate.estimator.planner.JoinTreeNode;
import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinType;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The estimate's model when Calcite cannot parse a statement: blocks and FROM items read off the token
 * stream. A block starts at SELECT (or UPDATE / DELETE) and belongs to its parenthesis level; its FROM
 * items are the first item after FROM (or USING, or UPDATE's target), one more per comma at that level
 * while in the FROM clause, and one more per JOIN. The items are assumed to form a star around the first
 * one: the join clauses are unknown, and a star is the shape with the most pairs that queries actually
 * write (a clique would be rarer and far larger). Comma items form one FROM list, JOINed items a chain of
 * inner joins, so from_collapse_limit and join_collapse_limit still split them as PostgreSQL would.
 * Sub-selects are not pulled up here: each block is planned on its own. Iterative, linear in tokens,
 * never throws.
 */
public final class LexicalFallback {

    /** Items one block may hold here; more are counted but planned as this many (GEQO or a capped count anyway). */
    public static final int MAX_ITEMS = 1000;

    private static final class Block {
        int commaItems;
        int joinItems;
        boolean inFrom;
        /** A LIMIT or FETCH FIRST at the block's level: planned for its first rows. */
        boolean firstRows;
    }

    /** The blocks of {@code query}: the first is the statement's, the others are planned separately. */
    public QueryBlock estimate(TokenStream t) {
        List<Block> blocks = new ArrayList<>();
        Block[] byDepth = new Block[16];
        int depth = 0;
        for (int i = 0; i < t.size(); i++) {
            TokenKind kind = t.kind(i);
            if (kind == TokenKind.LPAREN || kind == TokenKind.LBRACKET) {
                depth++;
                if (depth >= byDepth.length) {
                    byDepth = Arrays.copyOf(byDepth, depth * 2);
                }
                byDepth[depth] = null;
                continue;
            }
            if (kind == TokenKind.RPAREN || kind == TokenKind.RBRACKET) {
                depth = Math.max(0, depth - 1);
                continue;
            }
            Block b = byDepth[depth];
            if (t.is(i, Keyword.SELECT) || t.is(i, Keyword.UPDATE) && (b == null || !b.inFrom)
                    || t.is(i, Keyword.DELETE) || t.is(i, Keyword.MERGE)) {
                b = new Block();
                if (t.is(i, Keyword.UPDATE)) {
                    b.commaItems = 1;
                }
                blocks.add(b);
                byDepth[depth] = b;
            } else if (b == null) {
                continue;
            } else if (t.is(i, Keyword.FROM) || t.is(i, Keyword.INTO) && t.is(i - 1, Keyword.MERGE)
                    || t.is(i, Keyword.USING) && !t.is(i + 1, TokenKind.LPAREN)) {
                b.inFrom = true;
                b.commaItems++;
            } else if (b.inFrom && kind == TokenKind.COMMA) {
                b.commaItems++;
            } else if (b.inFrom && t.is(i, Keyword.JOIN)) {
                b.joinItems++;
            } else if (t.is(i, Keyword.LIMIT) && !t.is(i + 1, Keyword.ALL) || t.is(i, Keyword.FETCH)) {
                b.firstRows = true;
                b.inFrom = false;
            } else if (endsFrom(t, i)) {
                b.inFrom = false;
            }
        }
        if (blocks.isEmpty()) {
            return new QueryBlock(FromList.of(), List.of());
        }
        List<QueryBlock> rest = new ArrayList<>();
        for (int k = 1; k < blocks.size(); k++) {
            rest.add(star(blocks.get(k), k));
        }
        QueryBlock first = star(blocks.get(0), 0);
        return new QueryBlock(first.from(), first.predicates(), rest, first.fastStart());
    }

    private static boolean endsFrom(TokenStream t, int i) {
        return t.is(i, Keyword.WHERE) || t.is(i, Keyword.GROUP) || t.is(i, Keyword.HAVING) || t.is(i, Keyword.ORDER)
                || t.is(i, Keyword.LIMIT) || t.is(i, Keyword.OFFSET) || t.is(i, Keyword.UNION)
                || t.is(i, Keyword.INTERSECT) || t.is(i, Keyword.EXCEPT) || t.is(i, Keyword.WINDOW)
                || t.is(i, Keyword.RETURNING) || t.is(i, Keyword.FETCH) || t.is(i, Keyword.FOR)
                || t.is(i, Keyword.SET) || t.is(i, Keyword.WHEN) || t.is(i, TokenKind.SEMICOLON);
    }

    private static QueryBlock star(Block b, int index) {
        int commas = Math.min(Math.max(b.commaItems, 0), MAX_ITEMS);
        int joins = Math.min(b.joinItems, MAX_ITEMS - commas);
        if (commas == 0) {
            return new QueryBlock(FromList.of(), List.of());
        }
        String prefix = "b" + index + "r";
        List<Predicate> predicates = new ArrayList<>();
        JoinTreeNode chain = new RelationRef(prefix + 0);
        for (int j = 1; j <= joins; j++) {
            chain = new JoinNode(JoinType.INNER, chain, new RelationRef(prefix + (commas + j - 1)));
        }
        List<JoinTreeNode> items = new ArrayList<>();
        items.add(chain);
        for (int c = 1; c < commas; c++) {
            items.add(new RelationRef(prefix + c));
        }
        for (int r = 1; r < commas + joins; r++) {
            predicates.add(Predicate.Clause.of(prefix + 0, prefix + r));
        }
        return new QueryBlock(new FromList(items), predicates, List.of(), b.firstRows);
    }

    /** One block of {@code relations} items in a star, in one FROM list (capped at {@link #MAX_ITEMS}). */
    public static QueryBlock star(int relations) {
        Block b = new Block();
        b.commaItems = relations;
        return star(b, 0);
    }

    /** Relations over all blocks of {@link #estimate}, for messages. */
    public static int relations(QueryBlock block) {
        int n = QueryParts.relationsOf(block.from()).size();
        for (QueryBlock b : block.separatelyPlanned()) {
            n += QueryParts.relationsOf(b.from()).size();
        }
        return n;
    }
}
