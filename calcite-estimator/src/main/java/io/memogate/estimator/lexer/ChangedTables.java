package io.memogate.estimator.lexer;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * The tables a statement changes, and how, read off its tokens: what fires their triggers. {@code INSERT
 * INTO t} (with {@code ON CONFLICT ... DO UPDATE} also an update of {@code t}), {@code UPDATE [ONLY] t [AS
 * a] SET}, {@code DELETE FROM [ONLY] t}, {@code MERGE INTO t} (changed as its {@code THEN INSERT},
 * {@code THEN UPDATE} and {@code THEN DELETE} actions say), {@code COPY t FROM} and {@code TRUNCATE [TABLE]
 * t, u [CASCADE]}, wherever they stand: in a data-modifying {@code WITH} too. A lexer-level reading: a row lock
 * ({@code FOR UPDATE}) and a MERGE's actions are not mistaken for targets, since neither is followed by a
 * table and then SET or by FROM.
 */
public final class ChangedTables {

    /** What a statement does to a table's rows: PostgreSQL's trigger events. */
    public enum Change { INSERT, UPDATE, DELETE, TRUNCATE }

    /**
     * One table a statement changes.
     *
     * @param schema its schema as written (folded as PostgreSQL folds it); empty when unqualified
     * @param table its name, folded likewise
     * @param cascade truncated by a {@code TRUNCATE ... CASCADE}: so is every table whose foreign key references
     *     it, and theirs in turn, firing their TRUNCATE triggers too
     */
    public record Target(Optional<String> schema, String table, Set<Change> changes, boolean cascade) {
        public Target {
            changes = Set.copyOf(changes);
        }

        /** A target that cascades nowhere. */
        public Target(Optional<String> schema, String table, Set<Change> changes) {
            this(schema, table, changes, false);
        }

        Target with(Change change) {
            Set<Change> more = EnumSet.copyOf(changes);
            more.add(change);
            return new Target(schema, table, more, cascade);
        }
    }

    private ChangedTables() {
    }

    /** The tables the statement of {@code ts} changes, in order of appearance; none for a query or DDL. */
    public static List<Target> of(TokenStream ts) {
        List<Target> targets = new ArrayList<>();
        int lastInsert = -1; // the target an ON CONFLICT ... DO UPDATE updates
        for (int i = 0; i < ts.size(); i++) {
            if (ts.is(i, Keyword.INSERT) && ts.is(i + 1, Keyword.INTO)) {
                Optional<Target> target = named(ts, i + 2, EnumSet.of(Change.INSERT));
                if (target.isPresent()) {
                    lastInsert = targets.size();
                    targets.add(target.get());
                }
            } else if (ts.is(i, Keyword.DO) && ts.is(i + 1, Keyword.UPDATE) && lastInsert >= 0) {
                targets.set(lastInsert, targets.get(lastInsert).with(Change.UPDATE));
            } else if (ts.is(i, Keyword.UPDATE) && !ts.is(i - 1, Keyword.DO) && !ts.is(i - 1, Keyword.THEN)) {
                updated(ts, i + 1).ifPresent(targets::add);
            } else if (ts.is(i, Keyword.DELETE) && ts.is(i + 1, Keyword.FROM)) {
                named(ts, afterOnly(ts, i + 2), EnumSet.of(Change.DELETE)).ifPresent(targets::add);
            } else if (ts.is(i, Keyword.MERGE) && ts.is(i + 1, Keyword.INTO)) {
                named(ts, afterOnly(ts, i + 2), mergeActions(ts, i + 2)).ifPresent(targets::add);
            }
        }
        if (ts.is(0, Keyword.COPY)) {
            copiedInto(ts).ifPresent(targets::add);
        } else if (ts.is(0, Keyword.TRUNCATE)) {
            truncated(ts, targets);
        }
        return targets;
    }

    /** {@code UPDATE [ONLY] t [*] [[AS] alias] SET}, {@code name} at the token after UPDATE. */
    private static Optional<Target> updated(TokenStream ts, int name) {
        int at = afterOnly(ts, name);
        Optional<Target> target = named(ts, at, EnumSet.of(Change.UPDATE));
        if (target.isEmpty()) {
            return target;
        }
        int after = nameEnd(ts, at);
        if (isStar(ts, after)) {
            after++;
        }
        if (ts.is(after, Keyword.AS)) {
            after++;
        }
        if (!ts.is(after, Keyword.SET) && Literals.identifier(ts, after).isPresent()) {
            after++; // an alias
        }
        return ts.is(after, Keyword.SET) ? target : Optional.empty();
    }

    /** What a MERGE's WHEN clauses do to its target, from {@code from} on. */
    private static Set<Change> mergeActions(TokenStream ts, int from) {
        Set<Change> changes = EnumSet.noneOf(Change.class);
        for (int i = from; i + 1 < ts.size(); i++) {
            if (ts.is(i, Keyword.THEN)) {
                if (ts.is(i + 1, Keyword.INSERT)) {
                    changes.add(Change.INSERT);
                } else if (ts.is(i + 1, Keyword.UPDATE)) {
                    changes.add(Change.UPDATE);
                } else if (ts.is(i + 1, Keyword.DELETE)) {
                    changes.add(Change.DELETE);
                }
            }
        }
        return changes;
    }

    /** {@code COPY t [(columns)] FROM ...}; {@code COPY t TO} and {@code COPY (query) TO} change nothing. */
    private static Optional<Target> copiedInto(TokenStream ts) {
        int after = nameEnd(ts, 1);
        if (ts.is(after, TokenKind.LPAREN)) {
            while (after < ts.size() && !ts.is(after, TokenKind.RPAREN)) {
                after++;
            }
            after++;
        }
        return ts.is(after, Keyword.FROM) ? named(ts, 1, EnumSet.of(Change.INSERT)) : Optional.empty();
    }

    /** {@code TRUNCATE [TABLE] [ONLY] t [*], [ONLY] u [*] ... [RESTART | CONTINUE IDENTITY] [CASCADE | RESTRICT]}. */
    private static void truncated(TokenStream ts, List<Target> targets) {
        int first = targets.size();
        int i = ts.is(1, Keyword.TABLE) ? 2 : 1;
        while (true) {
            i = afterOnly(ts, i);
            Optional<Target> target = named(ts, i, EnumSet.of(Change.TRUNCATE));
            if (target.isEmpty()) {
                return;
            }
            targets.add(target.get());
            i = nameEnd(ts, i);
            if (isStar(ts, i)) {
                i++;
            }
            if (!ts.is(i, TokenKind.COMMA)) {
                break;
            }
            i++;
        }
        if ((ts.isWord(i, "restart") || ts.isWord(i, "continue")) && ts.isWord(i + 1, "identity")) {
            i += 2;
        }
        if (ts.isWord(i, "cascade")) {
            for (int k = first; k < targets.size(); k++) {
                Target plain = targets.get(k);
                targets.set(k, new Target(plain.schema(), plain.table(), plain.changes(), true));
            }
        }
    }

    /** {@code t *}: the table and its inheritance children, as without the star. */
    private static boolean isStar(TokenStream ts, int i) {
        return ts.is(i, TokenKind.OPERATOR) && ts.end(i) - ts.start(i) == 1 && ts.text().charAt(ts.start(i)) == '*';
    }

    private static int afterOnly(TokenStream ts, int i) {
        return ts.isWord(i, "only") && Literals.identifier(ts, i + 1).isPresent() ? i + 1 : i;
    }

    /** The table named at {@code i} ({@code t}, {@code s.t}, {@code db.s.t}), or empty when none is. */
    private static Optional<Target> named(TokenStream ts, int i, Set<Change> changes) {
        Optional<String> first = Literals.identifier(ts, i);
        if (first.isEmpty() || changes.isEmpty()) {
            return Optional.empty();
        }
        String schema = null;
        String table = first.get();
        for (int k = i + 1; ts.is(k, TokenKind.DOT) && Literals.identifier(ts, k + 1).isPresent(); k += 2) {
            schema = table;
            table = Literals.identifier(ts, k + 1).get();
        }
        return Optional.of(new Target(Optional.ofNullable(schema), table, changes));
    }

    /** The token after the dotted name at {@code i}. */
    private static int nameEnd(TokenStream ts, int i) {
        int k = i + 1;
        while (ts.is(k, TokenKind.DOT) && Literals.identifier(ts, k + 1).isPresent()) {
            k += 2;
        }
        return k;
    }
}
