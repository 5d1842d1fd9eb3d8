package io.memogate.proxy.pg.session;

import io.netty.buffer.ByteBuf;

/**
 * The client's Terminate, forwarded: the server reaches it after the statements the client pipelined
 * before it, ends the session and closes the connection, and that closes the client's
 * ({@link PgSession#backendClosed}). Closing the server connection at the Terminate instead would lose
 * those statements: a server process exits at its first write to a closed socket. So a client that
 * leaves right after its Terminate does not end the session either; the server's last answers, which
 * have nobody to go to, are read and dropped. On the session's event loop only.
 */
final class ClientTerminate {

    private final PgSession session;
    private boolean sent;
    private boolean clientGone;

    ClientTerminate(PgSession session) {
        this.session = session;
    }

    void send(ByteBuf terminate) {
        sent = true;
        session.sessionEndExpected();
        session.backend().writeAndFlush(terminate, session.backend().voidPromise());
    }

    /** The client closed: true when its Terminate went out, so the server finishes, then closes. */
    boolean clientClosed() {
        if (!sent) {
            return false;
        }
        clientGone = true;
        session.backend().config().setAutoRead(true);
        return true;
    }

    /** The client closed after its Terminate: what the server still sends is dropped. */
    boolean clientGone() {
        return clientGone;
    }
}
