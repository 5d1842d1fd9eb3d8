package io.memogate.estimator.lexer;

/**
 * What a statement does, as far as admission cares: whether the server plans a query for it, and which
 * statements change the session's transaction state. See {@link Classification} for the query inside.
 */
public enum StatementKind {
    SELECT,
    VALUES,
    /** {@code TABLE name}. */
    TABLE,
    /** {@code WITH ...} followed by a query, the query's kind is the classification's queryKind. */
    WITH,
    INSERT,
    UPDATE,
    DELETE,
    MERGE,
    /** {@code EXPLAIN [ANALYZE] [VERBOSE] | EXPLAIN (options)} followed by the explained statement. */
    EXPLAIN,
    /** {@code CREATE [TEMP|UNLOGGED] TABLE name ... AS query [WITH [NO] DATA]}. */
    CREATE_TABLE_AS,
    /** {@code SELECT ... INTO new_table ...}. */
    SELECT_INTO,
    /** {@code CREATE MATERIALIZED VIEW name ... AS query [WITH [NO] DATA]}. */
    CREATE_MATERIALIZED_VIEW,
    /** {@code REFRESH MATERIALIZED VIEW name}: planned, but the query is in the catalog, not in the text. */
    REFRESH_MATERIALIZED_VIEW,
    /** {@code DECLARE name ... CURSOR ... FOR query}. */
    DECLARE_CURSOR,
    /** {@code COPY (query) TO ...}. A COPY of a table is {@link #UTILITY}. */
    COPY_QUERY,
    /** {@code PREPARE name [(types)] AS statement}: analysed, not planned; EXECUTE plans it. */
    PREPARE,
    /** {@code EXECUTE name [(arguments)]}: plans the prepared statement of that name. */
    EXECUTE,
    SET,
    RESET,
    SHOW,
    /** {@code BEGIN}, {@code START TRANSACTION}. */
    BEGIN,
    /** {@code COMMIT}, {@code END}. */
    COMMIT,
    /** {@code ROLLBACK}, {@code ABORT}. */
    ROLLBACK,
    SAVEPOINT,
    /** {@code RELEASE [SAVEPOINT] name}. */
    RELEASE_SAVEPOINT,
    /** {@code ROLLBACK [WORK|TRANSACTION] TO [SAVEPOINT] name}. */
    ROLLBACK_TO_SAVEPOINT,
    /** {@code PREPARE TRANSACTION 'id'}: ends the transaction block like COMMIT. */
    PREPARE_TRANSACTION,
    /**
     * {@code DO [LANGUAGE name] 'body'}: an anonymous code block; not planned itself, but the queries of its
     * body are, while it runs.
     */
    DO,
    /** Everything else: DDL, VACUUM, CALL, LISTEN, COMMIT PREPARED, ... */
    UTILITY,
    /** No tokens. */
    EMPTY;

    /** Statements that begin or end a transaction block or move within it. */
    public boolean isTransactionControl() {
        return switch (this) {
            case BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE_SAVEPOINT, ROLLBACK_TO_SAVEPOINT, PREPARE_TRANSACTION -> true;
            default -> false;
        };
    }
}
