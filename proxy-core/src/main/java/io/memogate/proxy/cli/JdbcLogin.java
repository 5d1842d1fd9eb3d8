package io.memogate.proxy.cli;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** A command's own JDBC connection to a server: --user and --password when given, else the URL's or the driver's. */
final class JdbcLogin {

    private JdbcLogin() {
    }

    /** @param applicationName what pg_stat_activity shows for the connection */
    static Connection connect(String url, String user, String password, String applicationName) throws SQLException {
        Properties properties = new Properties();
        if (user != null) {
            properties.setProperty("user", user);
        }
        if (password != null) {
            properties.setProperty("password", password);
        }
        properties.setProperty("ApplicationName", applicationName);
        return DriverManager.getConnection(url, properties);
    }
}
