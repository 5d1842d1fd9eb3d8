package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;

/**
 * A message from server to client that the proxy must understand: the ones that mark where a
 * statement's compilation is over (release points), the transaction status, the startup and
 * authentication exchange, and the errors the proxy itself sends. DataRow, CopyData, NoticeResponse
 * from the server and the rest are forwarded as retained frames and never become objects.
 */
public sealed interface BackendMessage
        permits Authentication, BackendKeyData, BindComplete, BodilessMessage, CommandComplete, DataRow,
                EmptyQueryResponse, ErrorResponse, ParameterDescription, ParameterStatus, ReadyForQuery, RowDescription {

    /** Appends the message's wire form, frame header included. */
    void encode(ByteBuf out);
}
