package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.netty.buffer.ByteBuf;

/**
 * The server's answer to the request in flight, followed by its packets only: a server answers each request
 * with one message ([MS-TDS] 2.2.1), so its first packet says that compiling the batch's first statement is over
 * (FIRST_RESPONSE) and the packet marked end of message that the whole request is answered (REQUEST_DONE). The
 * admission decides which one frees the statement's permits. Used on the session's event loop only.
 */
final class Replies {

    private AdmittedStatement inFlight;
    private boolean answered;
    /** Reads the answer of a prepare for its handle; null for every other request, whose packets are only counted. */
    private PreparedHandles.Watch watch;

    /** A request went to the server with {@code admitted} (UNGATED for what passed no gateway). */
    void expect(AdmittedStatement admitted) {
        expect(admitted, null);
    }

    /** The same, its answer read by {@code watch} as it passes (a prepare's, for the handle it returns). */
    void expect(AdmittedStatement admitted, PreparedHandles.Watch watch) {
        inFlight = admitted;
        answered = false;
        this.watch = watch;
    }

    /** A server packet, about to be relayed. */
    void serverPacket(ByteBuf packet) {
        if (inFlight == null) {
            return;
        }
        if (!answered) {
            answered = true;
            inFlight.signal(ReleaseSignal.FIRST_RESPONSE);
        }
        if (watch != null) {
            watch.packet(packet);
        }
        if (TdsPackets.endsMessage(packet)) {
            if (watch != null) {
                watch.answered();
                watch = null;
            }
            AdmittedStatement done = inFlight;
            inFlight = null;
            done.signal(ReleaseSignal.REQUEST_DONE);
        }
    }

    /** No request waits for its answer. */
    boolean idle() {
        return inFlight == null;
    }

    /** Either leg went away: the request in flight is over. */
    void disconnect() {
        watch = null;
        if (inFlight != null) {
            AdmittedStatement gone = inFlight;
            inFlight = null;
            gone.signal(ReleaseSignal.DISCONNECT);
        }
    }
}
