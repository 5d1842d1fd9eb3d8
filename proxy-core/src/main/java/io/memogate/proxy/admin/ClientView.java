package io.memogate.proxy.admin;

import java.time.Instant;

/**
 * One client session as the console shows it (SHOW CLIENTS, and its server side in SHOW SERVERS): a
 * snapshot taken on the session's own thread.
 *
 * @param user null until the startup message is read
 * @param state {@code login}, {@code idle}, {@code active}, {@code idle in transaction},
 *     {@code idle in transaction (aborted)}, {@code waiting for admission}, {@code recycling server connection},
 *     {@code console}, {@code closed}
 *     (the first six as pg_stat_activity.state says them)
 * @param backend the backend's name; null before routing, and for console sessions once logged in
 * @param serverPid the server process, 0 when there is none
 * @param waiting where its statement waits for admission ("statement queued for the LARGE gateway: ..."),
 *     or null
 * @param recycled how often its server connection was replaced by a new one
 * @param relogin how the proxy would log it in again to recycle its connection ({@code scram-sha-256},
 *     {@code trust}, ...), or {@code none: } and why not, or {@code off}
 */
public record ClientView(String user, String database, String applicationName, String clientAddress,
                         boolean clientTls, String state, Instant connectedAt, String backend, String serverAddress,
                         int serverPid, boolean serverTls, String waiting, int recycled, String relogin) {

    /** Whether it holds a server connection now (a console session gives its back after the login). */
    public boolean hasServer() {
        return serverPid != 0;
    }
}
