/**
 * The MySQL wing: the MySQL client/server protocol, which MariaDB speaks too, on both legs of a session,
 * built on the protocol-neutral session core ({@link io.memogate.proxy.session}) as the PostgreSQL wing is.
 *
 * <ul>
 * <li>{@code codec}: packets framed by their 3-byte length and sequence id; a client's payload of several
 *     packets joined, up to limits.maxMessageBytes;</li>
 * <li>{@code message}: what the proxy reads or writes itself: the greeting and the login with their
 *     capabilities narrowed, the proxy's own ERR and OK packets, the command bytes;</li>
 * <li>{@code session}: a session's states (connect, greeting, authentication relayed as it is, commands),
 *     COM_QUERY and COM_STMT_EXECUTE through admission, where each answer ends, and the KILL QUERY a driver
 *     cancels with.</li>
 * </ul>
 *
 * <p>Served by {@code memogate run} for a {@code protocol: mysql} listener, with the estimator's MySQL dialect and
 * the broker-mysql probe: see {@code cli.Wings}.
 */
package io.memogate.proxy.mysql;
