package io.memogate.estimator.calcite;

import static io.memogate.estimator.calcite.QueryParts.columnEquality;
import static io.memogate.estimator.calcite.QueryParts.columnName;
import static io.memogate.estimator.calcite.QueryParts.conjuncts;
import static io.memogate.estimator.calcite.QueryParts.forFirstRows;
import static io.memogate.estimator.calcite.QueryParts.joinedOnKey;
import static io.memogate.estimator.calcite.QueryParts.link;
import static io.memogate.estimator.calcite.QueryParts.linkIn;
import static io.memogate.estimator.calcite.QueryParts.outputName;
import static io.memogate.estimator.calcite.QueryParts.relationsOf;
import static io.memogate.estimator.calcite.QueryParts.removable;
import static io.memogate.estimator.calcite.QueryParts.simple;
import static io.memogate.estimator.calcite.QueryParts.usingOwner;

import io.memogate.estimator.planner.ColumnRef;
import io.memogate.estimator.planner.JoinTreeNode.FromList;
import io.memogate.estimator.planner.JoinTreeNode.JoinNode;
import io.memogate.estimator.planner.JoinTreeNode.RelationRef;
import io.memogate.estimator.planner.JoinTreeNode.SubqueryRef;
import io.memogate.estimator.planner.JoinTreeNode;
import io.memogate.estimator.planner.JoinType;
import io.memogate.estimator.planner.Predicate;
import io.memogate.estimator.planner.QueryBlock;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import org.apache.calcite.sql.JoinConditionType;
import org.apache.calcite.sql.SqlBasicCall;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlIdentifier;
import org.apache.calcite.sql.SqlJoin;
import org.apache.calcite.sql.SqlKind;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;
import org.apache.calcite.sql.SqlOrderBy;
import org.apache.calcite.sql.SqlSelect;
import org.apache.calcite.sql.SqlSetOperator;
import org.apache.calcite.sql.SqlUnresolvedFunction;
import org.apache.calcite.sql.SqlWith;
import org.apache.calcite.sql.SqlWithItem;

/**
 * Turns a parsed query into the planner's {@link QueryBlock}, deciding what PostgreSQL's
 * {@code pull_up_sublinks} and {@code pull_up_subqueries} (src/backend/optimizer/prep/prepjointree.c)
 * would pull up:
 * <ul>
 *   <li>a FROM sub-select (or LATERAL one) without aggregates, GROUP BY, HAVING, DISTINCT, window
 *   functions, LIMIT/OFFSET or set operations is pulled up; otherwise it is one relation, planned apart;
 *   <li>a correlated [NOT] EXISTS over such a simple SELECT, AND-ed at the top of WHERE, becomes a
 *   SEMI (ANTI) join; an uncorrelated {@code x IN (SELECT ...)} becomes a SEMI join with the sub-select
 *   (itself pulled up when simple); every other sub-query is a separately planned block;
 *   <li>a non-recursive CTE referenced once is inlined (PostgreSQL 12+) unless written MATERIALIZED; one
 *   referenced more often, MATERIALIZED or recursive is planned once, apart, and scanned as a relation;
 *   <li>each branch of UNION / INTERSECT / EXCEPT is a separate block;
 *   <li>a view that the {@link CatalogQueries} know is its query, as the rewriter puts it in FROM: a
 *   sub-select, pulled up by the rules above unless it is a security barrier; likewise a call of a SQL
 *   function that the planner inlines. Views and functions inside them are expanded too, up to
 *   {@link Expansions#MAX_DEPTH} deep and {@link Expansions#MAX_EXPANSIONS} in all; one that would expand itself
 *   (two schemas' views of one name) stays one relation.
 * </ul>
 * Relation names are the aliases, made unique over the statement ({@code a}, {@code a#2}) so pulled-up
 * relations never clash. One builder per statement: not thread-safe.
 */
public final class QueryBlockBuilder {

    /**
     * A translated statement.
     *
     * @param block the statement's outermost block
     * @param unattributedColumns unqualified column references in multi-relation SELECTs that could not
     *     be tied to a relation (their conjuncts link nothing)
     * @param viewsExpanded views replaced by their queries (each reference counts)
     * @param functionsInlined SQL function calls replaced by their queries
     * @param viewTokens tokens of the views' and functions' definitions, summed likewise
     * @param readLexically of those expanded, the definitions Calcite could not parse, read off their tokens
     *     and planned apart
     */
    public record Translation(QueryBlock block, int unattributedColumns, int viewsExpanded, int functionsInlined,
                              int viewTokens, int readLexically) {
    }

    /** What a query built into a block offers its user. */
    private record Built(QueryBlock block, boolean simple, boolean correlated, Map<String, Set<String>> columns,
                         Set<String> relations) {
    }

    /**
     * CTE names written MATERIALIZED / NOT MATERIALIZED, and the CTEs in scope: the statement's, or while a
     * view or function is expanded, its definition's alone (its query sees none of the statement's names).
     */
    private Set<String> materialized;
    private Set<String> notMaterialized;
    private final CatalogQueries catalog;
    /** The views and functions being expanded, innermost first. */
    private final Expansions expansions = new Expansions();
    private final RelationNames names = new RelationNames();
    private Deque<Map<String, Cte>> ctes = new ArrayDeque<>();
    private Deque<List<QueryBlock>> cteBlocks = new ArrayDeque<>();
    /** Per SELECT being built, innermost first: the relations LEFT-joined on their key (see {@link #keyJoined}). */
    private final Deque<Set<String>> keyJoins = new ArrayDeque<>();
    private final Scope root = new Scope();

    public QueryBlockBuilder(Set<String> materialized, Set<String> notMaterialized) {
        this(materialized, notMaterialized, CatalogQueries.NONE);
    }

    public QueryBlockBuilder(Set<String> materialized, Set<String> notMaterialized, CatalogQueries catalog) {
        this.materialized = Set.copyOf(materialized);
        this.notMaterialized = Set.copyOf(notMaterialized);
        this.catalog = catalog;
    }

    /** The blocks of a query (SELECT, VALUES, WITH, a set operation, with ORDER BY / LIMIT). */
    public Translation translate(SqlNode query) {
        if (!SqlKinds.isQuery(query.getKind())) {
            throw new IllegalArgumentException("not a query: " + query.getKind());
        }
        QueryBlock block = query(query, root).block();
        return new Translation(block, root.unattributed(), expansions.views(), expansions.functions(),
                expansions.tokens(), expansions.readLexically());
    }

    private Built query(SqlNode node, Scope outer) {
        switch (node.getKind()) {
            case SELECT:
                return select((SqlSelect) node, outer);
            case ORDER_BY: {
                SqlOrderBy orderBy = (SqlOrderBy) node;
                Built inner = query(orderBy.query, outer);
                boolean limited = orderBy.fetch != null || orderBy.offset != null;
                QueryBlock block = orderBy.fetch == null ? inner.block() : forFirstRows(orderBy.query, inner.block());
                if (orderBy.orderList != null && !orderBy.orderList.isEmpty()) {
                    block = block.withKeyJoined(Set.of()); // the ordering may read them
                }
                return new Built(block, inner.simple() && !limited, inner.correlated(), inner.columns(),
                        inner.relations());
            }
            case WITH:
                return with((SqlWith) node, outer);
            case UNION, INTERSECT, EXCEPT: {
                List<QueryBlock> branches = new ArrayList<>();
                boolean correlated = false;
                // UNION ALL throughout: every set operation below is one too (a plain branch is not a set operation).
                boolean unionAll = node.getKind() == SqlKind.UNION && ((SqlSetOperator) ((SqlCall) node).getOperator()).isAll();
                for (SqlNode operand : ((SqlCall) node).getOperandList()) {
                    Built branch = query(operand, outer);
                    branches.add(branch.block());
                    correlated |= branch.correlated();
                    unionAll &= !branch.block().setOperation() || branch.block().unionAll();
                }
                return new Built(QueryBlock.setOperation(FromList.of(), branches, unionAll), false, correlated,
                        Map.of(), Set.of());
            }
            default: {
                // VALUES, TABLE t: no join; sub-queries inside VALUES are planned apart.
                List<QueryBlock> separate = new ArrayList<>();
                Scope scope = new Scope(outer);
                for (SqlNode operand : ((SqlCall) node).getOperandList()) {
                    ReferencedRelations.of(operand, scope, q -> separate.add(query(q, scope).block()));
                }
                return new Built(new QueryBlock(FromList.of(), List.of(), separate), false, scope.correlated(),
                        Map.of(), Set.of());
            }
        }
    }

    private Built with(SqlWith with, Scope outer) {
        List<SqlNode> scanned = new ArrayList<>(with.withList.getList());
        scanned.add(with.body);
        Map<String, Integer> references = CteReferences.in(scanned.toArray(SqlNode[]::new));
        Map<String, Cte> scope = new HashMap<>();
        for (SqlNode n : with.withList) {
            SqlWithItem item = (SqlWithItem) n;
            String name = item.name.getSimple();
            boolean recursive = item.recursive != null && item.recursive.booleanValue();
            boolean separate = recursive || materialized.contains(name)
                    || references.getOrDefault(name, 0) > 1 && !notMaterialized.contains(name);
            scope.put(name, new Cte(item, separate));
        }
        ctes.push(scope);
        cteBlocks.push(new ArrayList<>());
        try {
            Built body = query(with.body, outer);
            QueryBlock block = body.block().plannedBeside(cteBlocks.peek());
            return new Built(block, body.simple() && cteBlocks.peek().isEmpty(), body.correlated(), body.columns(),
                    body.relations());
        } finally {
            ctes.pop();
            cteBlocks.pop();
        }
    }

    private Built select(SqlSelect select, Scope outer) {
        Scope scope = new Scope(outer);
        List<Predicate> predicates = new ArrayList<>();
        List<QueryBlock> separate = new ArrayList<>();
        keyJoins.push(new HashSet<>());
        JoinTreeNode from;
        Set<String> candidates;
        try {
            from = select.getFrom() == null ? FromList.of() : fromItem(CommaItems.regroup(select.getFrom()), scope,
                    predicates, separate);
        } finally {
            candidates = keyJoins.pop();
        }
        int unattributedBefore = root.unattributed();
        for (SqlNode conjunct : conjuncts(select.getWhere())) {
            JoinTreeNode joined = sublinkJoin(conjunct, from, scope, predicates);
            if (joined != null) {
                from = joined;
            } else {
                predicate(conjunct, scope, predicates, separate, true);
            }
        }
        Map<String, Set<String>> columns = new LinkedHashMap<>();
        Set<String> read = new HashSet<>();
        for (SqlNode item : select.getSelectList()) {
            Set<String> refs = ReferencedRelations.of(item, scope, q -> separate.add(query(q, scope).block()));
            read.addAll(refs);
            String name = outputName(item);
            if (name != null) {
                columns.put(name, refs);
            }
        }
        for (SqlNode other : new SqlNode[] {select.getGroup(), select.getHaving(), select.getWindowList(),
                select.getQualify()}) {
            read.addAll(ReferencedRelations.of(other, scope, q -> separate.add(query(q, scope).block())));
        }
        // A column the scope could not place may read any of them.
        Set<String> removable = root.unattributed() != unattributedBefore ? Set.of() : removable(candidates, read, select);
        QueryBlock block = new QueryBlock(from, predicates, separate, select.getFetch() != null).withKeyJoined(removable)
                .withAggregates(QueryParts.aggregates(select));
        return new Built(block, simple(select), scope.correlated(), columns, relationsOf(from));
    }

    /** {@code [NOT] EXISTS} and {@code IN (SELECT ...)} that PostgreSQL turns into a semi or anti join. */
    private JoinTreeNode sublinkJoin(SqlNode conjunct, JoinTreeNode from, Scope scope, List<Predicate> predicates) {
        boolean negated = conjunct.getKind() == SqlKind.NOT;
        SqlNode inner = negated ? ((SqlCall) conjunct).operand(0) : conjunct;
        if (inner.getKind() == SqlKind.EXISTS) {
            SqlNode sub = ((SqlCall) inner).operand(0);
            if (sub.getKind() != SqlKind.SELECT) {
                return null;
            }
            Built built = query(sub, scope);
            if (!built.simple() || !built.correlated()) {
                // An uncorrelated EXISTS is an InitPlan, a complex one a SubPlan: planned apart.
                return null;
            }
            // convert_EXISTS_sublink_to_join makes the sub-select's WHERE the join's condition.
            return new JoinNode(negated ? JoinType.ANTI : JoinType.SEMI, from,
                    new SubqueryRef(names.unique("exists"), built.block(), true, false), built.block().predicates());
        }
        if (!negated && inner.getKind() == SqlKind.IN && ((SqlCall) inner).operand(1).getKind() != SqlKind.OTHER
                && SqlKinds.isQuery(((SqlCall) inner).operand(1).getKind())) {
            Built built = query(((SqlCall) inner).operand(1), scope);
            if (built.correlated()) {
                return null;
            }
            String alias = names.unique("in");
            SqlNode tested = ((SqlCall) inner).operand(0);
            Set<String> left = ReferencedRelations.of(tested, scope, q -> { });
            Set<String> right = built.simple() && !built.columns().isEmpty()
                    ? built.columns().values().iterator().next() : built.simple() ? built.relations() : Set.of(alias);
            int before = predicates.size();
            linkIn(tested, ((SqlCall) inner).operand(1), built.simple(), left, right, "in:" + alias, predicates);
            return new JoinNode(JoinType.SEMI, from, new SubqueryRef(alias, built.block(), built.simple()),
                    predicates.subList(before, predicates.size()));
        }
        return null;
    }

    private JoinTreeNode fromItem(SqlNode item, Scope scope, List<Predicate> predicates, List<QueryBlock> separate) {
        if (item instanceof SqlJoin join) {
            JoinTreeNode left = fromItem(join.getLeft(), scope, predicates, separate);
            JoinTreeNode right = fromItem(join.getRight(), scope, predicates, separate);
            if (join.getJoinType() == org.apache.calcite.sql.JoinType.COMMA) {
                List<JoinTreeNode> items = new ArrayList<>();
                if (left instanceof FromList list) {
                    items.addAll(list.items());
                } else {
                    items.add(left);
                }
                items.add(right);
                return new FromList(items);
            }
            JoinType type = switch (join.getJoinType()) {
                case LEFT, LEFT_ASOF -> JoinType.LEFT;
                case RIGHT -> JoinType.RIGHT;
                case FULL -> JoinType.FULL;
                case LEFT_SEMI_JOIN -> JoinType.SEMI;
                case LEFT_ANTI_JOIN -> JoinType.ANTI;
                case CROSS -> join.getCondition() == null ? JoinType.CROSS : JoinType.INNER;
                default -> JoinType.INNER;
            };
            boolean inner = type == JoinType.INNER || type == JoinType.CROSS;
            int before = predicates.size();
            if (join.getConditionType() == JoinConditionType.ON) {
                for (SqlNode conjunct : conjuncts(join.getCondition())) {
                    predicate(conjunct, scope, predicates, separate, inner);
                }
            } else if (join.getConditionType() == JoinConditionType.USING || join.isNatural()) {
                // The columns' owners need the catalog; link both sides (one relation each: an equality).
                String column = join.getCondition() instanceof SqlNodeList l && !l.isEmpty() ? l.get(0).toString() : "*";
                link(usingOwner(relationsOf(left), column, predicates),
                        usingOwner(relationsOf(right), column, predicates), column, predicates, inner);
            }
            if (type == JoinType.LEFT && right instanceof RelationRef relation && relation.table().isPresent()
                    && join.getConditionType() == JoinConditionType.ON
                    && joinedOnKey(relation.name(), join.getCondition(), scope)) {
                keyJoins.peek().add(relation.name());
            }
            return new JoinNode(type, left, right, predicates.subList(before, predicates.size()));
        }
        SqlNode target = item;
        String alias = null;
        if (item.getKind() == SqlKind.AS) {
            SqlCall as = (SqlCall) item;
            target = as.operand(0);
            alias = ((SqlIdentifier) as.operand(1)).getSimple();
        }
        if (target.getKind() == SqlKind.LATERAL || target.getKind() == SqlKind.TABLESAMPLE) {
            target = ((SqlCall) target).operand(0);
        }
        if (target instanceof SqlIdentifier id) {
            String table = id.names.get(id.names.size() - 1);
            String name = alias == null ? table : alias;
            Cte cte = id.names.size() == 1 ? cte(table) : null;
            if (cte != null && !cte.separate) {
                Built built = query(cte.item.query, scope);
                return subquery(name, built, scope);
            }
            if (cte == null && id.names.size() <= 2) {
                Optional<String> schema = id.names.size() == 2 ? Optional.of(id.names.get(0)) : Optional.empty();
                // Keyed by name alone: a view over another schema's view of its name stops there (rare),
                // and so does one that names itself through a schema the estimate cannot tell apart.
                JoinTreeNode view = expand(false, table, () -> catalog.view(schema, table), name, scope);
                if (view != null) {
                    return view;
                }
            }
            if (cte != null && cte.planned == null) {
                cte.planned = new RelationRef(names.unique(table));
                cteBlocks.peek().add(query(cte.item.query, scope).block());
            }
            String relation = names.unique(name);
            scope.put(name, new Scope.Source.Relation(relation, table));
            return new RelationRef(relation, cte == null ? Optional.of(table) : Optional.empty());
        }
        if (SqlKinds.isQuery(target.getKind()) && target.getKind() != SqlKind.VALUES) {
            return subquery(alias == null ? "subquery" : alias, query(target, scope), scope);
        }
        if (target.getKind() == SqlKind.COLLECTION_TABLE && ((SqlCall) target).operand(0) instanceof SqlBasicCall call
                && call.getOperator() instanceof SqlUnresolvedFunction function
                && InlinableCall.argumentsAllow(call)) {
            String functionName = function.getName();
            // A FROM function's name is its alias. Its arguments stand in the inlined query where the
            // parameters were: a LATERAL reference to an earlier FROM item is not followed.
            JoinTreeNode inlined = expand(true, functionName.toLowerCase(Locale.ROOT) + "/" + call.operandCount(),
                    () -> catalog.function(functionName, call.operandCount()), alias == null ? functionName : alias,
                    scope);
            if (inlined != null) {
                return inlined;
            }
        }
        // A function scan, VALUES, ...: one relation; sub-queries in its arguments are planned apart.
        // Its arguments may reference earlier FROM items (LATERAL): those become a clause with it.
        Set<String> arguments = new LinkedHashSet<>();
        if (target instanceof SqlCall call) {
            for (SqlNode operand : call.getOperandList()) {
                arguments.addAll(ReferencedRelations.of(operand, scope, q -> separate.add(query(q, scope).block())));
            }
        }
        String name = alias == null ? "function" : alias;
        String relation = names.unique(name);
        arguments.add(relation);
        if (arguments.size() >= 2) {
            predicates.add(Predicate.Clause.filter(arguments));
        }
        scope.put(name, new Scope.Source.Relation(relation, name));
        return new RelationRef(relation, Optional.empty());
    }

    /**
     * A view's or function's query (looked up by {@code lookup}) as the FROM item {@code alias}; null when
     * there is none to expand, and it stays one relation.
     *
     * @param function a function call (else a view)
     * @param name what is expanded, to stop one from expanding itself
     */
    private JoinTreeNode expand(boolean function, String name, Supplier<Optional<CatalogQueries.QueryBody>> lookup,
                                String alias, Scope scope) {
        String key = (function ? "function " : "view ") + name;
        if (!expansions.mayExpand(key)) {
            return null;
        }
        Optional<CatalogQueries.QueryBody> found = lookup.get();
        if (found.isEmpty()) {
            return null;
        }
        CatalogQueries.QueryBody body = found.get();
        if (body instanceof CatalogQueries.Parsed p && !SqlKinds.isQuery(p.query().getKind())) {
            return null; // a definition that parsed as no query
        }
        expansions.count(function, body.tokens(), body instanceof CatalogQueries.Unparsed);
        if (body instanceof CatalogQueries.Unparsed unparsed) {
            String relation = names.unique(alias);
            scope.put(alias, new Scope.Source.Relation(relation, alias));
            return new SubqueryRef(relation, unparsed.block(), false);
        }
        CatalogQueries.Parsed parsed = (CatalogQueries.Parsed) body;
        Set<String> statementMaterialized = materialized;
        Set<String> statementNotMaterialized = notMaterialized;
        Deque<Map<String, Cte>> statementCtes = ctes;
        Deque<List<QueryBlock>> statementCteBlocks = cteBlocks;
        materialized = parsed.materialized();
        notMaterialized = parsed.notMaterialized();
        ctes = new ArrayDeque<>();
        cteBlocks = new ArrayDeque<>();
        expansions.enter(key);
        Built built;
        try {
            // A view's or function's query sees none of the statement's names, CTEs included: its columns
            // resolve against the root, its relations against its own WITH.
            built = query(parsed.query(), root);
        } finally {
            expansions.leave();
            materialized = statementMaterialized;
            notMaterialized = statementNotMaterialized;
            ctes = statementCtes;
            cteBlocks = statementCteBlocks;
        }
        if (parsed.securityBarrier()) {
            built = new Built(built.block(), false, built.correlated(), built.columns(), built.relations());
        }
        return subquery(alias, built, scope);
    }

    private JoinTreeNode subquery(String alias, Built built, Scope scope) {
        String name = names.unique(alias);
        scope.put(alias, built.simple()
                ? new Scope.Source.PulledUp(built.columns(), built.relations())
                : new Scope.Source.Relation(name, alias));
        return new SubqueryRef(name, built.block(), built.simple());
    }

    private void predicate(SqlNode conjunct, Scope scope, List<Predicate> predicates, List<QueryBlock> separate,
                           boolean innerCondition) {
        // An outer join's ON condition filters the join, not the outer side's scan: it prunes no partition there.
        Optional<Predicate.Pin> pin = innerCondition
                ? Pins.of(conjunct, node -> ReferencedRelations.of(node, scope, q -> { })) : Optional.empty();
        if (pin.isPresent()) {
            predicates.add(pin.get());
            return;
        }
        if (conjunct.getKind() == SqlKind.EQUALS) {
            SqlCall eq = (SqlCall) conjunct;
            Set<String> left = ReferencedRelations.of(eq.operand(0), scope, q -> separate.add(query(q, scope).block()));
            Set<String> right = ReferencedRelations.of(eq.operand(1), scope, q -> separate.add(query(q, scope).block()));
            if (left.size() == 1 && right.size() == 1 && !left.equals(right)) {
                predicates.add(columnEquality(new ColumnRef(left.iterator().next(), columnName(eq.operand(0))),
                        new ColumnRef(right.iterator().next(), columnName(eq.operand(1))), innerCondition));
                return;
            }
            link(left, right, "", predicates, false);
            return;
        }
        Set<String> relations = ReferencedRelations.of(conjunct, scope, q -> separate.add(query(q, scope).block()));
        if (relations.size() >= 2) {
            predicates.add(Predicate.Clause.filter(relations));
        }
    }

    private Cte cte(String name) {
        for (Map<String, Cte> scope : ctes) {
            Cte cte = scope.get(name);
            if (cte != null) {
                return cte;
            }
        }
        return null;
    }
}
