package io.memogate.estimator.sqlserver;

import io.memogate.estimator.lexer.TokenKind;
import io.memogate.estimator.sqlserver.TsqlTokens.Token;
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

    static List<Token> asQuery(List<Token> tokens, Set<String> notes) {
        if (tokens.isEmpty()) {
            return tokens;
        }
        String first = tokens.getFirst().word();
        if (first.equals("with")) {
            int verb = atDepth0(tokens, 1, DML);
            if (verb < 0) {
                return tokens;
            }
            List<Token> query = new ArrayList<>(tokens.subList(0, verb));
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

    private static List<Token> update(List<Token> tokens, Set<String> notes) {
        int set = atDepth0(tokens, 1, Set.of("set"));
        if (set < 0) {
            return tokens;
        }
        notes.add("UPDATE read as the SELECT of its tables");
        int from = atDepth0(tokens, set + 1, Set.of("from"));
        if (from >= 0) {
            return select(tokens.subList(from + 1, tokens.size()), List.of());
        }
        int rest = atDepth0(tokens, set + 1, CLAUSE_AFTER_TARGET);
        return select(tokens.subList(1, set), rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
    }

    private static List<Token> delete(List<Token> tokens, Set<String> notes) {
        int target = tokens.size() > 1 && tokens.get(1).word().equals("from") ? 2 : 1;
        notes.add("DELETE read as the SELECT of its tables");
        int from = atDepth0(tokens, target, Set.of("from"));
        if (from >= 0) {
            return select(tokens.subList(from + 1, tokens.size()), List.of());
        }
        int rest = atDepth0(tokens, target, CLAUSE_AFTER_TARGET);
        return select(tokens.subList(target, rest < 0 ? tokens.size() : rest),
                rest < 0 ? List.of() : tokens.subList(rest, tokens.size()));
    }

    private static List<Token> insert(List<Token> tokens, Set<String> notes) {
        notes.add("INSERT read as its source query");
        int source = atDepth0(tokens, 1, Set.of("select", "with", "values", "exec", "execute", "default"));
        if (source < 0 || !Set.of("select", "with", "values").contains(tokens.get(source).word())) {
            return List.of(new Token(TokenKind.IDENT, "SELECT"), new Token(TokenKind.NUMBER, "1"));
        }
        return tokens.subList(source, tokens.size());
    }

    private static List<Token> merge(List<Token> tokens, Set<String> notes) {
        int using = atDepth0(tokens, 1, Set.of("using"));
        int on = using < 0 ? -1 : atDepth0(tokens, using + 1, Set.of("on"));
        int when = on < 0 ? -1 : atDepth0(tokens, on + 1, Set.of("when"));
        if (when < 0) {
            return tokens;
        }
        notes.add("MERGE read as the join of its target and source");
        int target = tokens.get(1).word().equals("into") ? 2 : 1;
        List<Token> from = new ArrayList<>(tokens.subList(target, using));
        from.add(new Token(TokenKind.IDENT, "JOIN"));
        from.addAll(tokens.subList(using + 1, when));
        return select(from, List.of());
    }

    private static List<Token> select(List<Token> tables, List<Token> rest) {
        List<Token> select = new ArrayList<>(tables.size() + rest.size() + 3);
        select.add(new Token(TokenKind.IDENT, "SELECT"));
        select.add(new Token(TokenKind.NUMBER, "1"));
        select.add(new Token(TokenKind.IDENT, "FROM"));
        select.addAll(tables);
        select.addAll(rest);
        return select;
    }

    private static int atDepth0(List<Token> tokens, int from, Set<String> words) {
        int depth = 0;
        for (int i = from; i < tokens.size(); i++) {
            TokenKind kind = tokens.get(i).kind();
            if (kind == TokenKind.LPAREN) {
                depth++;
            } else if (kind == TokenKind.RPAREN) {
                depth--;
            } else if (depth == 0 && words.contains(tokens.get(i).word())) {
                return i;
            }
        }
        return -1;
    }
}
