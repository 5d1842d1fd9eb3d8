/**
 * The protocol-neutral side of a session, which the server, the admin console and the metrics see: a
 * {@link io.memogate.proxy.session.ProtocolWing} per wire protocol sets up each client connection, and
 * every session, whatever its protocol, answers as a {@link io.memogate.proxy.session.TrackedSession}.
 *
 * <p>Nothing here imports a wing (the {@code pg} package and those beside it); the CLI wiring alone picks
 * the wings by each listener's {@code protocol}. A test over the compiled classes holds that line.
 */
package io.memogate.proxy.session;
