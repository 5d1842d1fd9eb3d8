package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;

/**
 * The extended protocol's answers that carry nothing but their type, as the console sends them. From a
 * server they are relayed untouched, never decoded.
 */
public enum BodilessMessage implements BackendMessage {
    /** The Parse is done. */
    PARSE_COMPLETE(BackendType.PARSE_COMPLETE),
    /** The Close is done. */
    CLOSE_COMPLETE(BackendType.CLOSE_COMPLETE),
    /** The statement or portal described returns no rows. */
    NO_DATA(BackendType.NO_DATA),
    /** Execute stopped at its row limit; the portal has more. */
    PORTAL_SUSPENDED(BackendType.PORTAL_SUSPENDED);

    private final byte type;

    BodilessMessage(byte type) {
        this.type = type;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(type);
        out.writeInt(4);
    }
}
