package io.memogate.proxy.pg.message.backend;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * NotificationResponse ('A'): int32 process id of the notifying server process, then the channel and the
 * payload as strings. Only its process id is ever read or changed: the strings are in the session's
 * client_encoding, and are relayed byte for byte, never decoded.
 */
public final class NotificationResponse {

    public static final byte TYPE = 'A';

    /** Where the process id is, counted from the type byte. */
    private static final int PROCESS_ID_OFFSET = 5;

    private NotificationResponse() {}

    /** The notifying process of the message whose type byte is at {@code index}. */
    public static int processId(ByteBuf buf, int index) {
        return buf.getInt(index + PROCESS_ID_OFFSET);
    }

    /** A copy of the message at {@code index} ({@code length} its length field) naming {@code processId} instead. */
    public static ByteBuf withProcessId(ByteBuf buf, int index, int length, int processId, ByteBufAllocator alloc) {
        ByteBuf copy = alloc.buffer(1 + length).writeBytes(buf, index, 1 + length);
        return copy.setInt(PROCESS_ID_OFFSET, processId);
    }
}
