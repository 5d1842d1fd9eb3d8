package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admission.AdmittedStatement;
import io.memogate.proxy.admission.ReleaseSignal;
import io.memogate.proxy.mysql.codec.MySqlPackets;
import io.memogate.proxy.mysql.message.ErrPacket;
import io.memogate.proxy.mysql.message.MalformedPacketException;
import io.memogate.proxy.mysql.message.OkPacket;
import io.netty.buffer.ByteBuf;
import java.util.ArrayDeque;
import java.util.Locale;
import java.util.function.Consumer;

/**
 * The answers a session's client awaits, in the order it sent the commands (a driver may pipeline them), and
 * where each ends in the server's packets: what tells an admitted statement that its optimization is over,
 * what maps a PREPARE_OK's statement id to its text, and where an answer the proxy makes itself (a refusal, a
 * KILL it carried out) goes so that it reaches the client in its turn.
 *
 * <p>A turn's answer, by the shape of its command ({@link Shape}), protocol "COM_QUERY Response":
 * <pre>
 * RESULT   OK or ERR, or a result set: column count, column definitions, EOF (unless CLIENT_DEPRECATE_EOF),
 *          rows, then EOF or OK (0xFE) or ERR; an OK or EOF with SERVER_MORE_RESULTS_EXISTS starts another;
 *          or LOAD DATA LOCAL INFILE's request for a file (0xFB): the client's packets up to an empty one are
 *          then the file's contents, and the server's OK or ERR follows them
 * PREPARE  ERR, or PREPARE_OK then its parameter and column definitions, each run followed by an EOF
 *          (unless CLIENT_DEPRECATE_EOF)
 * SINGLE   one packet (OK, ERR, EOF, a statistics string)
 * ROWS     rows until EOF / OK (0xFE) or ERR (COM_STMT_FETCH, COM_FIELD_LIST)
 * AUTH     COM_CHANGE_USER's authentication, relayed both ways until OK or ERR
 * ENDLESS  a replication stream: never ends
 * </pre>
 * A payload of 16 MiB or more continues in the next packets, which are not classified.
 *
 * <p>Release signals: RUNNING when a statement's turn comes, FIRST_RESPONSE (or ERROR) at its first packet,
 * REQUEST_DONE at its last. Used on the session's event loop only.
 */
final class ResponseTracker {

    enum Shape { RESULT, PREPARE, SINGLE, ROWS, AUTH, ENDLESS }

    private enum Step { FIRST, COLUMNS, COLUMNS_EOF, ROWS, DEFINITIONS, CLIENT_FILE }

    private static final int SERVER_STATUS_AUTOCOMMIT = 0x0002;
    private static final int SERVER_MORE_RESULTS_EXISTS = 0x0008;
    private static final int SERVER_STATUS_CURSOR_EXISTS = 0x0040;
    private static final int EOF = 0xFE;
    private static final int LOCAL_INFILE_REQUEST = 0xFB;

    /** One answer in line: the server's to a command, or one the proxy makes. */
    private sealed interface Turn permits ServerTurn, ProxyTurn {
    }

    /** The proxy's own answer, written when the answers before it are through. */
    private record ProxyTurn(ByteBuf answer) implements Turn {
    }

    private static final class ServerTurn implements Turn {
        final Shape shape;
        final AdmittedStatement admitted;
        final String preparedText;
        Step step;
        long remaining;
        boolean running;
        boolean answered;
        boolean released;

        ServerTurn(Shape shape, AdmittedStatement admitted, String preparedText) {
            this.shape = shape;
            this.admitted = admitted;
            this.preparedText = preparedText;
            this.step = shape == Shape.ROWS ? Step.ROWS : Step.FIRST;
        }

        void signal(ReleaseSignal signal) {
            if (signal == ReleaseSignal.RUNNING && running) {
                return;
            }
            running = true;
            if (!released) {
                released = signal.isFinal();
                admitted.signal(signal);
            }
        }
    }

    private final ArrayDeque<Turn> turns = new ArrayDeque<>();
    private final PreparedTexts statements;
    private boolean deprecateEof;
    /** The packet before was a full one: this one continues its payload. */
    private boolean continuing;
    /** The status flags of the server's last OK or EOF: what the proxy's own OK repeats. */
    private int status = SERVER_STATUS_AUTOCOMMIT;

    ResponseTracker(PreparedTexts statements) {
        this.statements = statements;
    }

    /** The login agreed on CLIENT_DEPRECATE_EOF: result sets end with an OK, and have no EOF after their columns. */
    void deprecateEof(boolean deprecated) {
        deprecateEof = deprecated;
    }

    /** A command sent to the server, which answers it in {@code shape}. */
    void expect(Shape shape, AdmittedStatement admitted) {
        expect(shape, admitted, null);
    }

    /** A COM_STMT_PREPARE of {@code text} sent: its PREPARE_OK names the id it is executed by. */
    void expectPrepare(String text) {
        expect(Shape.PREPARE, AdmittedStatement.UNGATED, text);
    }

    private void expect(Shape shape, AdmittedStatement admitted, String preparedText) {
        ServerTurn turn = new ServerTurn(shape, admitted, preparedText);
        turns.add(turn);
        if (turns.size() == 1) {
            turn.signal(ReleaseSignal.RUNNING);
        }
    }

    /** Every answer awaited is through. */
    boolean idle() {
        return turns.isEmpty();
    }

    /**
     * The client's next packets answer the server (COM_CHANGE_USER's authentication, the file LOAD DATA LOCAL
     * INFILE asked for), not commands.
     */
    boolean awaitsClientData() {
        return turns.peekLast() instanceof ServerTurn last && last.shape == Shape.AUTH
                || turns.peekFirst() instanceof ServerTurn first && first.step == Step.CLIENT_FILE;
    }

    /** A payload of the client's that {@link #awaitsClientData() answers the server}: an empty one ends a file. */
    void clientData(ByteBuf frame) {
        if (turns.peekFirst() instanceof ServerTurn first && first.step == Step.CLIENT_FILE
                && MySqlPackets.payloadLength(frame) == 0) {
            first.step = Step.FIRST; // the server's OK or ERR for the statement comes next
        }
    }

    /** An ERR of the proxy's, written now when nothing is awaited before it, else in its turn. */
    void answerInTurn(ErrPacket error, int sequenceId, Consumer<ByteBuf> toClient, ByteBuf out) {
        error.encode(out, sequenceId);
        answerInTurn(out, toClient);
    }

    /** An OK of the proxy's, with the server's last status flags, in its turn. */
    void okInTurn(int sequenceId, Consumer<ByteBuf> toClient, ByteBuf out) {
        OkPacket.encode(out, sequenceId, status);
        answerInTurn(out, toClient);
    }

    private void answerInTurn(ByteBuf answer, Consumer<ByteBuf> toClient) {
        if (turns.isEmpty()) {
            toClient.accept(answer);
        } else {
            turns.add(new ProxyTurn(answer));
        }
    }

    /**
     * A packet of the server's, before it is relayed: it advances the answer in front.
     *
     * @throws MalformedPacketException when it cannot be part of the answer awaited
     */
    void serverPacket(ByteBuf packet) {
        boolean part = continuing;
        continuing = MySqlPackets.payloadLength(packet) == MySqlPackets.MAX_PAYLOAD;
        if (part || !(turns.peekFirst() instanceof ServerTurn turn)) {
            return; // a payload's continuation; or a packet nobody asked for (a server's goodbye ERR)
        }
        ByteBuf payload = packet.slice(packet.readerIndex() + MySqlPackets.HEADER_BYTES,
                MySqlPackets.payloadLength(packet));
        int first = payload.isReadable() ? payload.getUnsignedByte(0) : -1;
        if (!turn.answered) {
            turn.answered = true;
            turn.signal(first == ErrPacket.HEADER ? ReleaseSignal.ERROR : ReleaseSignal.FIRST_RESPONSE);
        }
        try {
            if (advance(turn, payload, first)) {
                turn.signal(ReleaseSignal.REQUEST_DONE);
                turns.poll();
            }
        } catch (IndexOutOfBoundsException | IllegalArgumentException e) {
            throw new MalformedPacketException("a packet of the server's answer to a "
                    + turn.shape.name().toLowerCase(Locale.ROOT) + " command ends inside a field");
        }
    }

    /** The proxy's answers whose turn has come, written after the server's packet that ended the one before. */
    void answersDue(Consumer<ByteBuf> toClient) {
        while (turns.peekFirst() instanceof ProxyTurn proxy) {
            turns.poll();
            toClient.accept(proxy.answer());
        }
        if (turns.peekFirst() instanceof ServerTurn next) {
            next.signal(ReleaseSignal.RUNNING);
        }
    }

    /** True when {@code payload} ends the turn's answer. */
    private boolean advance(ServerTurn turn, ByteBuf payload, int first) {
        return switch (turn.shape) {
            case SINGLE -> true;
            case ENDLESS -> false;
            case AUTH -> first == OkPacket.HEADER || first == ErrPacket.HEADER;
            case PREPARE -> prepareStep(turn, payload, first);
            case RESULT, ROWS -> resultStep(turn, payload, first);
        };
    }

    private boolean prepareStep(ServerTurn turn, ByteBuf payload, int first) {
        if (turn.step == Step.DEFINITIONS) {
            return --turn.remaining == 0;
        }
        if (first != OkPacket.HEADER) {
            return true; // ERR
        }
        long id = payload.getUnsignedIntLE(1);
        int columns = payload.getUnsignedShortLE(5);
        int parameters = payload.getUnsignedShortLE(7);
        statements.prepared(id, turn.preparedText);
        turn.remaining = definitions(parameters) + definitions(columns);
        turn.step = Step.DEFINITIONS;
        return turn.remaining == 0;
    }

    private long definitions(int count) {
        return count == 0 ? 0 : count + (deprecateEof ? 0 : 1);
    }

    private boolean resultStep(ServerTurn turn, ByteBuf payload, int first) {
        switch (turn.step) {
            case FIRST -> {
                if (first == ErrPacket.HEADER) {
                    return true;
                }
                if (first == OkPacket.HEADER) {
                    return !moreResults(okStatus(payload));
                }
                if (first == LOCAL_INFILE_REQUEST && turn.shape == Shape.RESULT) {
                    turn.step = Step.CLIENT_FILE;
                    return false;
                }
                turn.remaining = MySqlPackets.readLengthEncoded(payload.duplicate());
                turn.step = Step.COLUMNS;
                return false;
            }
            case COLUMNS -> {
                if (--turn.remaining == 0) {
                    turn.step = deprecateEof ? Step.ROWS : Step.COLUMNS_EOF;
                }
                return false;
            }
            case COLUMNS_EOF -> {
                status = payload.getUnsignedShortLE(3);
                turn.step = Step.ROWS;
                return (status & SERVER_STATUS_CURSOR_EXISTS) != 0; // a cursor's rows come at COM_STMT_FETCH
            }
            case ROWS -> {
                if (first == ErrPacket.HEADER) {
                    return true;
                }
                if (first != EOF || payload.readableBytes() >= (deprecateEof ? MySqlPackets.MAX_PAYLOAD : 9)) {
                    return false; // a row
                }
                int flags = deprecateEof ? okStatus(payload) : payload.getUnsignedShortLE(3);
                if (turn.shape == Shape.ROWS || !moreResults(flags)) {
                    return true;
                }
                turn.step = Step.FIRST;
                return false;
            }
            default -> throw new IllegalStateException("not a result's step: " + turn.step);
        }
    }

    /** The status flags of an OK packet (header, affected rows, last insert id, status), noted. */
    private int okStatus(ByteBuf payload) {
        ByteBuf in = payload.duplicate();
        in.skipBytes(1);
        MySqlPackets.readLengthEncoded(in);
        MySqlPackets.readLengthEncoded(in);
        status = in.readUnsignedShortLE();
        return status;
    }

    private static boolean moreResults(int flags) {
        return (flags & SERVER_MORE_RESULTS_EXISTS) != 0;
    }

    /** The session ended: statements still answered are released, the proxy's answers dropped. */
    void disconnect() {
        while (!turns.isEmpty()) {
            switch (turns.poll()) {
                case ServerTurn turn -> turn.signal(ReleaseSignal.DISCONNECT);
                case ProxyTurn proxy -> proxy.answer().release();
            }
        }
    }
}
