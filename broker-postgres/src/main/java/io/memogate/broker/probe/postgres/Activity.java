package io.memogate.broker.probe.postgres;

import java.util.List;

/**
 * Who is connected, from pg_stat_activity, the probe's own session excluded.
 *
 * @param clientBackendPids pids of client backends, ascending
 * @param activeBackends    how many of them run a statement
 * @param serverPids        pids of every server process the view lists (client backends, autovacuum,
 *                          checkpointer, walwriter, ...), ascending: whose memory to read when co-located
 */
record Activity(List<Integer> clientBackendPids, int activeBackends, List<Integer> serverPids) {

    Activity {
        clientBackendPids = List.copyOf(clientBackendPids);
        serverPids = List.copyOf(serverPids);
    }
}
