package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;

/**
 * The extended protocol's answers that carry nothing but their type, as the console sends them. From a
 * server they are relayed untouched, never decoded.
 */
public enum BodilessMessage implements BackendMessage {
    /** '1': the Parse is done. */
    PARSE_COMPLETE('1'),
    /** '3': the Close is done. */
    CLOSE_COMPLETE('3'),
    /** 'n': the statement or portal described returns no rows. */
    NO_DATA('n'),
    /** 's': Execute stopped at its row limit; the portal has more. */
    PORTAL_SUSPENDED('s');

    private final char type;

    BodilessMessage(char type) {
        this.type = type;
    }

    @Override
    public void encode(ByteBuf out) {
        out.writeByte(type);
        out.writeInt(4);
    }
}
