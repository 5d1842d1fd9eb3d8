package io.memogate.estimator.lexer;

import java.util.Objects;
import java.util.Optional;

/**
 * What kind of statement this is and where the query the server plans for it lies.
 *
 * @param kind the statement as written: {@code EXPLAIN}, {@code WITH}, {@code CREATE_TABLE_AS}, ...
 * @param queryKind the planned (or, for PREPARE, prepared) statement inside wrappers such as EXPLAIN,
 *     PREPARE, CREATE TABLE AS, DECLARE, COPY and WITH: SELECT, VALUES, TABLE, INSERT, UPDATE, DELETE,
 *     MERGE, SELECT_INTO, EXECUTE or REFRESH_MATERIALIZED_VIEW; WITH when a WITH has no recognizable body;
 *     the same as kind for statements without a query
 * @param planned whether executing the statement makes the server's planner run (EXPLAIN without ANALYZE
 *     does; PREPARE does not, its EXECUTE does; {@code WITH NO DATA} does not)
 * @param queryToken index of the query's first token among the statement's tokens (counted from the
 *     statement's first token, as {@code tokens.lex(text, span.start(), span.end())} numbers them), -1 when
 *     the query is not in the text (EXECUTE, REFRESH MATERIALIZED VIEW) or there is none
 * @param queryStart offset in the text of the query's first character, -1 likewise
 * @param queryEnd offset just past the query's last character (before {@code ) TO} of COPY, before
 *     {@code WITH [NO] DATA}), -1 likewise
 * @param name the prepared statement's name (EXECUTE, PREPARE), the cursor's (DECLARE), the materialized
 *     view's (REFRESH) or the savepoint's, as the server folds it: unquoted in lower case, quoted as written
 */
public record Classification(
        StatementKind kind,
        StatementKind queryKind,
        boolean planned,
        int queryToken,
        int queryStart,
        int queryEnd,
        Optional<String> name) {

    public Classification {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(queryKind, "queryKind");
        Objects.requireNonNull(name, "name");
    }

    /** The classification of one statement's text, lexed by {@code rules}. */
    public static Classification of(String statement, LexicalRules rules) {
        return of(TokenStream.of(statement, rules));
    }

    /** The classification of all tokens of the stream, taken as one statement. */
    public static Classification of(TokenStream tokens) {
        return new Classifier(tokens).classify(0, tokens.size(), 0);
    }

    static Classification withoutQuery(StatementKind kind, boolean planned, Optional<String> name) {
        return new Classification(kind, kind, planned, -1, -1, -1, name);
    }

    public boolean isPlanned() {
        return planned;
    }

    /** Whether the query's text is in the statement (not for EXECUTE and REFRESH MATERIALIZED VIEW). */
    public boolean hasQueryText() {
        return queryStart >= 0;
    }

    /** The query's text out of the text the statement was lexed from, or "" when it is not there. */
    public String queryText(String text) {
        return hasQueryText() ? text.substring(queryStart, queryEnd) : "";
    }
}
