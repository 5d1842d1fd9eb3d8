package io.memogate.proxy.pg.session;

import io.memogate.proxy.session.RecycleCounts;

/**
 * What every PostgreSQL session of a proxy shares, whatever its listener and across reloads: the connector
 * that opens (and counts) server connections, where cancel requests go, the cancel keys handed to clients,
 * the count of replaced server connections, and the roles servers let in without a password (warned about
 * once).
 */
public record PgShared(BackendConnector connector, CancelForwarder cancelForwarder, CancelRegistry cancels,
                       RecycleCounts recycles, PasswordlessLogins passwordlessLogins) {
}
