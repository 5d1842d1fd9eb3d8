package io.memogate.proxy.pg.session;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Warns, once per backend and role, when a server lets a login in without asking for a password. The
 * server judges every session by the proxy's address (a Unix socket: the proxy's OS user), not the
 * client's: a pg_hba {@code trust} rule, or {@code peer} for the OS user the proxy runs as, then admits
 * anyone who can reach the proxy's listener. Memogate relays authentication and never decides it, so
 * it can only say so; an operator who meant it reads one line per role.
 */
public final class PasswordlessLogins {

    private static final Logger log = LoggerFactory.getLogger(PasswordlessLogins.class);
    /** Roles are few; the bound only keeps a flood of made-up role names (each refused) from growing it. */
    private static final int MAX_REMEMBERED = 10_000;

    private final Set<String> warned = ConcurrentHashMap.newKeySet();

    /** {@code user} logged in to {@code target} with AuthenticationOk as the server's first answer. */
    void loggedInWithoutPassword(BackendTarget target, String user) {
        if (warned.size() >= MAX_REMEMBERED || !warned.add(target.name() + "\0" + user)) {
            return;
        }
        log.warn("backend {} at {} let role \"{}\" in without a password (pg_hba trust{}): the server sees every"
                        + " Memogate session as coming from Memogate, so any client that can reach Memogate's"
                        + " listeners can log in as \"{}\" the same way; use scram-sha-256 for the rule that matches"
                        + " Memogate's connections",
                target.name(), target.address(), user, target.unixSocket().isPresent() ? " or peer, on local" : "",
                user);
    }
}
