/**
 * Logging in to a server again on a client's behalf, so that a session's server connection can be
 * replaced (recycled) without the client noticing: what the proxy learns while it relays the client's
 * own login ({@link io.memogate.proxy.pg.auth.LoginObserver}), the secrets a DBA may give it in a
 * PgBouncer-style auth file ({@link io.memogate.proxy.config.AuthFile}), and the answers it gives a
 * server itself ({@link io.memogate.proxy.pg.auth.ServerLogin}).
 *
 * <p>The proxy still never decides a login: a client's login is relayed, and a replacement login is
 * one the server accepted for this client before, repeated with what the client proved it knows.
 */
package io.memogate.proxy.pg.auth;
