package io.memogate.broker.probe.postgres;

import java.util.List;
import java.util.Map;

/**
 * Who is connected, from pg_stat_activity, the probe's own session excluded.
 *
 * @param clientBackendPids pids of client backends, ascending
 * @param activeBackends    how many of them run a statement
 * @param serverPids        pids of every server process the view lists (client backends, autovacuum,
 *                          checkpointer, walwriter, ...), ascending: whose memory to read when co-located
 * @param idleSince         the client backends waiting for their client (state idle, idle in transaction or idle in
 *                          transaction (aborted)), each with its state_change in microseconds since the epoch: the
 *                          same value at two polls means it ran nothing in between
 */
record Activity(List<Integer> clientBackendPids, int activeBackends, List<Integer> serverPids,
                Map<Integer, Long> idleSince) {

    Activity {
        clientBackendPids = List.copyOf(clientBackendPids);
        serverPids = List.copyOf(serverPids);
        idleSince = Map.copyOf(idleSince);
    }
}
