package io.memogate.broker.probe;

import java.util.List;
import java.util.Objects;

/**
 * A server's client connections, the probe's own excluded; see {@link MemorySnapshot} for what each kind
 * of server maps here.
 *
 * @param limit  how many connections the server accepts
 * @param active how many of them run a statement
 * @param ids    the server's id of each connection (PostgreSQL: its backend's pid), ascending; empty when the
 *               server shows the monitoring user only its own (MySQL without the PROCESS privilege), {@code active}
 *               then being the server's own count
 */
public record ServerConnections(int limit, int active, List<Integer> ids) {

    public ServerConnections {
        if (limit <= 0) {
            throw new IllegalArgumentException("limit must be > 0, was " + limit);
        }
        ids = List.copyOf(Objects.requireNonNull(ids, "ids"));
        if (active < 0 || !ids.isEmpty() && active > ids.size()) {
            throw new IllegalArgumentException("active must be in [0, " + ids.size() + "], the connections, was "
                    + active);
        }
    }
}
