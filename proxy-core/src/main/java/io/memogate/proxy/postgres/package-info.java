/**
 * PostgreSQL as a database server, beside {@code pg}, PostgreSQL as a wire protocol: what Memogate reads from
 * a PostgreSQL server over JDBC to estimate well ({@code catalog}: indexes, views, functions, triggers, role
 * settings), fits to it ({@code calibrate}: the bytes-per-memo-pair model from EXPLAIN (MEMORY)), and starts
 * for the demo and the tests ({@code embedded}). A MySQL or SQL Server dialect gets a package of its own
 * beside this one.
 */
package io.memogate.proxy.postgres;
