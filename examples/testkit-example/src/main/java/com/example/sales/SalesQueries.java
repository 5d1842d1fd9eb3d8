package com.example.sales;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Optional;

/**
 * The application under test: a point lookup the order page runs on every request, and the monthly sales report,
 * a star join of the sales table and its fifteen dimensions.
 */
public final class SalesQueries {

    private static final String SALE_BY_ID = "select id, amount from sales where id = ?";
    private static final String MONTHLY_REPORT = resource("monthly-report.sql");

    private final Connection connection;

    public SalesQueries(Connection connection) {
        this.connection = connection;
    }

    public Optional<Long> amountOfSale(long id) throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(SALE_BY_ID)) {
            statement.setLong(1, id);
            try (ResultSet row = statement.executeQuery()) {
                return row.next() ? Optional.of(row.getLong("amount")) : Optional.empty();
            }
        }
    }

    /** The number of sales the report covers. */
    public long monthlyReport() throws SQLException {
        try (PreparedStatement statement = connection.prepareStatement(MONTHLY_REPORT);
                ResultSet row = statement.executeQuery()) {
            row.next();
            return row.getLong(1);
        }
    }

    private static String resource(String name) {
        try (InputStream in = SalesQueries.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("missing resource " + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
