package io.memogate.proxy.postgres.calibrate.tpc;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import org.postgresql.PGConnection;

/**
 * Loads generated rows into a table with COPY ... (FORMAT csv), a batch at a time. Every non-null value
 * is quoted, so an unquoted empty field is NULL and a quoted empty one an empty string.
 */
final class CsvCopy {

    private static final int BATCH_ROWS = 5_000;

    private final Connection connection;
    private final String table;
    private final StringBuilder batch = new StringBuilder();
    private int rowsInBatch;
    private long rows;

    CsvCopy(Connection connection, String table) {
        this.connection = connection;
        this.table = table;
    }

    void add(List<String> values) throws SQLException {
        for (int i = 0; i < values.size(); i++) {
            if (i > 0) {
                batch.append(',');
            }
            String value = values.get(i);
            if (value != null) {
                batch.append('"').append(value.replace("\"", "\"\"")).append('"');
            }
        }
        batch.append('\n');
        rows++;
        if (++rowsInBatch == BATCH_ROWS) {
            flush();
        }
    }

    long rows() {
        return rows;
    }

    /** Sends what is buffered. */
    void flush() throws SQLException {
        if (rowsInBatch == 0) {
            return;
        }
        try (Reader reader = new StringReader(batch.toString())) {
            connection.unwrap(PGConnection.class).getCopyAPI()
                    .copyIn("COPY " + table + " FROM STDIN (FORMAT csv)", reader);
        } catch (IOException e) {
            throw new SQLException("cannot copy into " + table, e);
        }
        batch.setLength(0);
        rowsInBatch = 0;
    }
}
