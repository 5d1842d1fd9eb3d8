package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;

/** ReadyForQuery ('Z'): the end of a query cycle, with the transaction status. */
public record ReadyForQuery(TransactionStatus status) implements BackendMessage {

    public static final byte TYPE = 'Z';

    public enum TransactionStatus {
        IDLE('I'),
        IN_TRANSACTION('T'),
        FAILED('E');

        private final char code;

        TransactionStatus(char code) {
            this.code = code;
        }

        public char code() {
            return code;
        }

        /** The status from its byte, without building a message: the relay path reads it in place. */
        public static TransactionStatus of(byte code) {
            return switch (code) {
                case 'I' -> IDLE;
                case 'T' -> IN_TRANSACTION;
                case 'E' -> FAILED;
                default -> throw new MalformedMessageException("unknown transaction status " + (char) code);
            };
        }
    }

    public static ReadyForQuery decode(ByteBuf frame) {
        return new ReadyForQuery(TransactionStatus.of(PgWire.readByte(PgWire.body(frame, TYPE))));
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(TYPE);
        out.writeInt(5);
        out.writeByte(status.code);
    }
}
