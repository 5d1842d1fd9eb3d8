package io.memogate.proxy.pg.message.frontend;

import io.netty.buffer.ByteBuf;

/**
 * A message from client to server that the proxy must understand. Everything else a client sends
 * (Describe, Execute, CopyData, FunctionCall, ...) is forwarded as the retained
 * frame it arrived in and never becomes an object.
 */
public sealed interface FrontendMessage
        permits StartupPacket, Query, Parse, Bind, Describe, Execute, Close, Sync, Flush, Terminate, CopyDone, CopyFail,
                PasswordResponse {

    /** Appends the message's wire form, frame header included. */
    void encode(ByteBuf out);
}
