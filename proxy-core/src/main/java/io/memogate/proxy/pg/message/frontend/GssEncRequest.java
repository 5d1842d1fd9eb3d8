package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** GSSENCRequest: GSSAPI encryption, which the proxy never offers; answered 'N'. */
public record GssEncRequest() implements StartupPacket {

    public static final GssEncRequest INSTANCE = new GssEncRequest();

    @Override
    public void encode(ByteBuf out) {
        out.writeInt(8);
        out.writeInt(GSSENC_REQUEST_CODE);
    }
}
