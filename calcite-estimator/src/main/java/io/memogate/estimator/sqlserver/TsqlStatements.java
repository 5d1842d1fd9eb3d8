package io.memogate.estimator.sqlserver;

import io.memogate.estimator.dialect.WrittenToken;
import io.memogate.estimator.lexer.TokenKind;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * T-SQL's data-changing statements as the query SQL Server's optimizer joins for them: {@code UPDATE t SET ...
 * FROM tables WHERE ...} and {@code DELETE [FROM] t FROM tables WHERE ...} as {@code SELECT 1 FROM tables WHERE
 * ...} (without their own FROM, of their target alone); {@code INSERT} as its source query ({@code SELECT},
 * {@code VALUES}; nothing to join for {@code EXEC} or {@code DEFAULT VALUES}); {@code MERGE t USING s ON c} as
 * the join of its target and source; each after a WITH of CTEs too.
 */
final class TsqlStatements {

    private static final Set<String> DML = Set.of("update", "delete", "insert", "merge");
    private static final Set<String> CLAUSE_AFTER_TARGET = Set.of("where", "option");

    private TsqlStatements() {
    }

    static List<WrittenToken> asQuery(List<WrittenToken> tokens, Set<String> notes) {
        if (tokens.isEmpty()) {
            return tokens;
        }
        String first = tokens.getFirst().word();
        if (first.equals("with")) {
            int verb = WrittenToken.atDepth0(tokens, 1, DML);
            if (verb < 0) {
                return tokens;
            }
            List<WrittenToken> query = new ArrayList<>(tokens.subList(0, verb));
            query.addAll(asQuery(tokens.subList(verb, tokens.size()), notes));
            return query;
        }
        return switch (first) {
            case "update" -> update(tokens, notes);
            case "delete" -> delete(tokens, notes);
            case "insert" -> insert(tokens, notes);
            case "merge" -> merge(tokens, notes);
            default -> tokens;
        };
    }

    private static List<WrittenToken> update(List<WrittenToken> tokens, Set<String> notes) {
        int set = WrittenToken.atDepth0(tokens, 1, Set.of("set"));
        if (set < 0) {
            return tokens;
        }
        notes.add("UPDATE read as the SELECT of its tables");
        int from = WrittenToken.atDepth0(tokens, set + 1, Set.of("from"));
        if (from >= 0) {
            return WrittenToken.select(tokens.subList(from + 1, tokens.size()), List.of());
        }
        int rest = WrittenToken.atDepth0(tokens, set + 1, CLAUSE_AFTER_TARGET);
        return WrittenToken.select(tokens.subList(1, set), rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
    }

    private static List<WrittenToken> delete(List<WrittenToken> tokens, Set<String> notes) {
        int target = tokens.size() > 1 && tokens.get(1).word().equals("from") ? 2 : 1;
        notes.add("DELETE read as the SELECT of its tables");
        int from = WrittenToken.atDepth0(tokens, target, Set.of("from"));
        if (from >= 0) {
            return WrittenToken.select(tokens.subList(from + 1, tokens.size()), List.of());
        }
        int rest = WrittenToken.atDepth0(tokens, target, CLAUSE_AFTER_TARGET);
        return WrittenToken.select(tokens.subList(target, rest < 0 ? tokens.size() : rest),
                rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
    }

    private static List<WrittenToken> insert(List<WrittenToken> tokens, Set<String> notes) {
        notes.add("INSERT read as its source query");
        int source = WrittenToken.atDepth0(tokens, 1, Set.of("select", "with", "values", "exec", "execute", "default"));
        if (source < 0 || !Set.of("select", "with", "values").contains(tokens.get(source).word())) {
            return List.of(new WrittenToken(TokenKind.IDENT, "SELECT"), new WrittenToken(TokenKind.NUMBER, "1"));
        }
        return tokens.subList(source, tokens.size());
    }

    private static List<WrittenToken> merge(List<WrittenToken> tokens, Set<String> notes) {
        int using = WrittenToken.atDepth0(tokens, 1, Set.of("using"));
        int on = using < 0 ? -1 : WrittenToken.atDepth0(tokens, using + 1, Set.of("on"));
        int when = on < 0 ? -1 : WrittenToken.atDepth0(tokens, on + 1, Set.of("when"));
        if (when < 0) {
            return tokens;
        }
        notes.add("MERGE read as the join of its target and source");
        int target = tokens.get(1).word().equals("into") ? 2 : 1;
        List<WrittenToken> from = new ArrayList<>(tokens.subList(target, using));
        from.add(new WrittenToken(TokenKind.IDENT, "JOIN"));
        from.addAll(tokens.subList(using + 1, when));
        return WrittenToken.select(from, List.of());
    }
}
