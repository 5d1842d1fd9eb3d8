package io.memogate.proxy.admission;

/**
 * The protocol moment at which a statement asks for admission (DESIGN.md, "Admission points"), named for
 * what every protocol has; each wing says which of its messages are which.
 */
public enum AdmissionPoint {
    /**
     * A statement text sent to run now, possibly holding several statements (PostgreSQL: simple Query;
     * MySQL: COM_QUERY; TDS: SQLBatch). Its permits may go at the first answer of a single statement.
     */
    STATEMENT_TEXT,
    /**
     * A prepared statement the server plans as it is about to run (PostgreSQL: Bind; MySQL:
     * COM_STMT_EXECUTE; TDS: RPC of a prepared handle). One statement.
     */
    PREPARED_EXECUTION
}
