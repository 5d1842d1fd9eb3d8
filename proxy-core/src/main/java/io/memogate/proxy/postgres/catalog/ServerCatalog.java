package io.memogate.proxy.postgres.catalog;

import io.memogate.estimator.Catalog;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A database's whole {@link Catalog} as the estimator uses it: its indexes ({@link IndexCatalog}), views
 * ({@link ViewCatalog}), inlinable SQL functions ({@link FunctionCatalog}), the PL/pgSQL and SQL routines
 * whose queries are planned while they run ({@link RoutineCatalog}), the triggers that run PL/pgSQL
 * functions ({@link TriggerCatalog}) and the partitioned tables ({@link PartitionCatalog}), read over one
 * connection.
 * What the proxy reads with {@code broker.monitor}, and {@code estimate --catalog-url}, {@code calibrate} and
 * the accuracy benchmark with theirs, so that all of them estimate a statement alike.
 */
public final class ServerCatalog {

    private ServerCatalog() {
    }

    /** The catalog of the database {@code connection} is connected to. */
    public static Catalog read(Connection connection) throws SQLException {
        return new Catalog(IndexCatalog.read(connection), ViewCatalog.read(connection),
                FunctionCatalog.read(connection), RoutineCatalog.read(connection), TriggerCatalog.read(connection),
                PartitionCatalog.read(connection));
    }
}
