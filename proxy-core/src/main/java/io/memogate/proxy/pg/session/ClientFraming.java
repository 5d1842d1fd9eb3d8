package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.codec.ClientMessageDecoder;
import io.memogate.proxy.pg.message.PgWire;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.CopyDone;
import io.memogate.proxy.pg.message.frontend.CopyFail;
import io.memogate.proxy.pg.message.frontend.Flush;
import io.memogate.proxy.pg.message.frontend.FrontendType;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import io.memogate.proxy.pg.message.frontend.Sync;
import java.util.Optional;

/** What the client's framer ({@link ClientMessageDecoder}) asks its session about a message's type. */
final class ClientFraming implements ClientMessageDecoder.StreamPolicy {

    private final PgSession session;

    ClientFraming(PgSession session) {
        this.session = session;
    }

    /**
     * A long client message of this type may reach the session in parts: a Bind, whose admission needs only
     * the statement name at its start, and CopyData and FunctionCall (a driver's large-object writes), which
     * nothing reads; in READY only, where {@link AdmissionFlow} follows the parts. Elsewhere (logging in, the
     * console) every message is held whole.
     */
    @Override
    public boolean mayStream(byte type) {
        return session.state == PgSession.State.READY
                && (type == Bind.TYPE || type == FrontendType.COPY_DATA || type == FrontendType.FUNCTION_CALL);
    }

    /**
     * Types PostgreSQL refuses where the session is, on their type byte, as it does: so a client that sent
     * only part of such a message is answered, not left waiting for its FATAL until it sends the rest. Once
     * logged in, a password or SASL answer (postgres.c, SocketBackend: "invalid frontend message type"); while
     * the server reads COPY data, any type but those it reads there (copyfromparse.c, CopyGetData).
     */
    @Override
    public Optional<String> refusal(byte type) {
        if (session.state != PgSession.State.READY) {
            return Optional.empty();
        }
        if (type == PasswordResponse.TYPE) {
            return Optional.of("unknown message type '" + PgWire.printableType(type) + "'");
        }
        if (session.serverReadsCopyData() && !readDuringCopyIn(type)) {
            return Optional.of("unexpected message type '" + PgWire.printableType(type) + "' during COPY from stdin");
        }
        return Optional.empty();
    }

    /** What PostgreSQL reads during COPY FROM STDIN data. */
    private static boolean readDuringCopyIn(byte type) {
        return switch (type) {
            case FrontendType.COPY_DATA, CopyDone.TYPE, CopyFail.TYPE, Flush.TYPE, Sync.TYPE -> true;
            default -> false;
        };
    }
}
