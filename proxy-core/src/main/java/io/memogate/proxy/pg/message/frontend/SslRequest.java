package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/** SSLRequest: the client asks to switch to TLS before its StartupMessage; answered 'S' or 'N'. */
public record SslRequest() implements StartupPacket {

    public static final SslRequest INSTANCE = new SslRequest();

    @Override
    public void encode(ByteBuf out) {
        out.writeInt(8);
        out.writeInt(SSL_REQUEST_CODE);
    }
}
