/**
 * The protocol-neutral side of a session. The server, the admin console and the metrics see every session as
 * a {@link io.memogate.proxy.session.TrackedSession}; a {@link io.memogate.proxy.session.ProtocolWing} per wire
 * protocol sets up each client connection.
 *
 * <p>What every wing's session shares lives here, so that a second protocol is a new folder beside
 * {@code pg/}, not a copy of it:
 * <ul>
 * <li>{@link io.memogate.proxy.session.SessionLegs}: the client's connection and the server's, and the
 *     back-pressure between them (a leg is read only when the other can take more);</li>
 * <li>{@link io.memogate.proxy.session.HeldInput}: the client's frames in order, and the one queue they wait in
 *     while something holds the input (a connection being opened, a statement waiting);</li>
 * <li>{@link io.memogate.proxy.session.StatementAdmission}: hold, admit, forward; a cancel's withdrawal; the
 *     one notice to a client kept waiting; permits given back when the session ended meanwhile;</li>
 * <li>{@link io.memogate.proxy.session.OwnedFrame} and {@link io.memogate.proxy.session.LoopHandoff}: a frame
 *     that leaves the event loop is forwarded or released exactly once, and a failure off the loop ends the
 *     session with an internal error instead of leaving the client waiting;</li>
 * <li>{@link io.memogate.proxy.session.LingeringClose}: a client still sending reads the last thing it was told.</li>
 * </ul>
 * The wing supplies the framer, the startup and authentication relay, which messages are admission points and
 * with which text, which answers are release signals, refusals and notices in its own words, and its cancel.
 *
 * <p>Nothing here imports a wing (the {@code pg} package and those beside it); the CLI wiring alone picks
 * the wings by each listener's {@code protocol}. A test over the compiled classes holds that line.
 */
package io.memogate.proxy.session;
