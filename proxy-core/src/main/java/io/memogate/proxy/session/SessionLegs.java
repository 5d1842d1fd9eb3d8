package io.memogate.proxy.session;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFutureListener;

/**
 * A session's two connections, the client's and the server's, and the back-pressure between them, as in
 * Netty's HexDumpProxy: AUTO_READ is off on both legs, and a leg is read again only when the other can take
 * more (channel writability). What the wing adds is when its client may be read at all ({@link Pace}): not
 * while its input holds (a statement waiting for admission), so that TCP pushes back on a client that keeps
 * sending. Writes go out with the void promise and are flushed once per read, not per message. Used on the
 * session's event loop only.
 */
public final class SessionLegs {

    /** When the client may be read, as the wing's session sees it now. */
    public enum ClientRead {
        /** Read it now, whatever the server's leg: the proxy answers it itself, or drops what it sends. */
        NOW,
        /** Read it when the server's leg can take more: what it sends is relayed there. */
        WHEN_SERVER_WRITABLE,
        /** Do not read it: its input holds, or nothing may be sent yet. */
        WAIT
    }

    /** The wing's rules for its legs. */
    public interface Pace {

        ClientRead clientRead();

        /** The server's leg is read whatever the client's pace (the proxy itself awaits its answer). */
        boolean serverReadAhead();

        /** The session has ended: no leg is read any more. */
        boolean ended();
    }

    private final Channel client;
    private final Pace pace;
    private Channel server;

    public SessionLegs(Channel client, Pace pace) {
        this.client = client;
        this.pace = pace;
    }

    /** The server's leg; null until one is open. */
    public Channel server() {
        return server;
    }

    /** The server's leg from now on: the one just opened, or the one that replaces it. */
    public void server(Channel opened) {
        server = opened;
    }

    /** Queued for the server, flushed at the end of the client's read. */
    public void toServer(ByteBuf message) {
        server.write(message, server.voidPromise());
    }

    /** Queued for the client, flushed at the end of the server's read. */
    public void toClient(ByteBuf message) {
        client.write(message, client.voidPromise());
    }

    /** The client's read is done: what it sent goes out in one flush, and it is read again if it may be. */
    public void clientReadComplete() {
        if (server != null) {
            server.flush();
        }
        readClientIfAllowed();
    }

    /** Reads the client if its pace allows it now; else a later event (a decision, writability) will. */
    public void readClientIfAllowed() {
        if (pace.ended()) {
            return;
        }
        switch (pace.clientRead()) {
            case NOW -> client.read();
            case WHEN_SERVER_WRITABLE -> {
                if (server != null && server.isWritable()) {
                    client.read();
                }
            }
            case WAIT -> { }
        }
    }

    /** The server's read is done: what it sent goes out, and it is read again when the client can take more. */
    public void serverReadComplete() {
        client.flush();
        if (server != null && !pace.ended() && (pace.serverReadAhead() || client.isWritable())) {
            server.read();
        }
    }

    /** The client can take more (or less): the server is read again once it can. */
    public void clientWritabilityChanged() {
        if (client.isWritable() && server != null && !pace.ended()) {
            server.read();
        }
    }

    /** The server can take more (or less): the client may be read again. */
    public void serverWritabilityChanged() {
        readClientIfAllowed();
    }

    /**
     * Closes both legs after what was written to them: the client's so that one still sending reads it
     * ({@link LingeringClose}), the server's once flushed.
     */
    public void close() {
        LingeringClose.close(client);
        if (server != null) {
            server.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }
}
