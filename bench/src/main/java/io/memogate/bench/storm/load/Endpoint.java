package io.memogate.bench.storm.load;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Properties;

/** Where the clients connect: the server itself or a proxy in front of it; same database and login. */
public record Endpoint(String host, int port, String database, String user, String password) {

    /**
     * A new connection. No socket timeout: a plan may take minutes in a storm, and the benchmark ends a
     * client by aborting its connection. The connect timeout only bounds a server that does not answer.
     */
    public Connection connect() throws SQLException {
        Properties properties = new Properties();
        properties.setProperty("user", user);
        properties.setProperty("password", password);
        properties.setProperty("connectTimeout", "30");
        properties.setProperty("ApplicationName", "memogate-storm");
        return DriverManager.getConnection("jdbc:postgresql://" + host + ":" + port + "/" + database, properties);
    }
}
