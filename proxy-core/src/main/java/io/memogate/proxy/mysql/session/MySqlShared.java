package io.memogate.proxy.mysql.session;

import io.memogate.proxy.session.ServerConnector;

/**
 * What every MySQL session of a proxy shares, whatever its listener and across reloads: the connector that
 * opens (and counts) server connections, and the sessions a KILL QUERY may name.
 */
public record MySqlShared(ServerConnector connector, KillTargets kills) {
}
