package io.memogate.proxy.it;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import org.postgresql.util.PSQLException;

/** The admin console through pgjdbc, as an operator's script would use it: simple query mode, rows by column name. */
final class ConsoleClient {

    private ConsoleClient() {
    }

    static Connection connect(int port, String user, String password, String... properties) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        if (password != null) {
            props.setProperty("password", password);
        }
        props.setProperty("sslmode", "disable");
        props.setProperty("connectTimeout", "10");
        props.setProperty("socketTimeout", "60");
        props.setProperty("preferQueryMode", "simple");
        for (int i = 0; i + 1 < properties.length; i += 2) {
            props.setProperty(properties[i], properties[i + 1]);
        }
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/memogate", props);
    }

    /** An ordinary session through the proxy, to a server database. */
    static Connection session(int port, String database, String user, String password) throws SQLException {
        Properties props = new Properties();
        props.setProperty("user", user);
        props.setProperty("password", password);
        props.setProperty("sslmode", "disable");
        props.setProperty("connectTimeout", "10");
        props.setProperty("socketTimeout", "60");
        return DriverManager.getConnection("jdbc:postgresql://127.0.0.1:" + port + "/" + database, props);
    }

    /** The result set of {@code command}, each row by column name, in the order returned. */
    static List<Map<String, String>> rows(Connection console, String command) throws SQLException {
        try (Statement statement = console.createStatement(); ResultSet rows = statement.executeQuery(command)) {
            return read(rows);
        }
    }

    static List<Map<String, String>> read(ResultSet rows) throws SQLException {
        ResultSetMetaData meta = rows.getMetaData();
        List<Map<String, String>> all = new ArrayList<>();
        while (rows.next()) {
            Map<String, String> row = new LinkedHashMap<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                row.put(meta.getColumnName(i), rows.getString(i));
            }
            all.add(row);
        }
        return all;
    }

    /** The column names of {@code command}'s result set. */
    static List<String> columns(Connection console, String command) throws SQLException {
        try (Statement statement = console.createStatement(); ResultSet rows = statement.executeQuery(command)) {
            ResultSetMetaData meta = rows.getMetaData();
            List<String> names = new ArrayList<>();
            for (int i = 1; i <= meta.getColumnCount(); i++) {
                names.add(meta.getColumnName(i));
            }
            return names;
        }
    }

    /** A name/value table (SHOW STATS, SHOW BROKER) as a map. */
    static Map<String, String> values(Connection console, String command) throws SQLException {
        Map<String, String> values = new LinkedHashMap<>();
        for (Map<String, String> row : rows(console, command)) {
            values.put(row.get("name"), row.get("value"));
        }
        return values;
    }

    /** The row whose {@code column} is {@code value}; fails when there is none. */
    static Map<String, String> row(List<Map<String, String>> rows, String column, String value) {
        return rows.stream().filter(r -> value.equals(r.get(column))).findFirst()
                .orElseThrow(() -> new AssertionError("no row with " + column + " = " + value + " in " + rows));
    }

    /** A command without rows (SET, PAUSE, RESUME): its notices, in order. */
    static List<String> run(Connection console, String command) throws SQLException {
        try (Statement statement = console.createStatement()) {
            statement.execute(command);
            List<String> notices = new ArrayList<>();
            for (SQLWarning w = statement.getWarnings(); w != null; w = w.getNextWarning()) {
                notices.add(w.getMessage());
            }
            return notices;
        }
    }

    /** The server error of a failed command. */
    static PSQLException failure(Connection console, String command) {
        try (Statement statement = console.createStatement()) {
            statement.execute(command);
        } catch (PSQLException e) {
            return e;
        } catch (SQLException e) {
            throw new AssertionError("expected a server error, got " + e, e);
        }
        throw new AssertionError(command + " succeeded");
    }
}
