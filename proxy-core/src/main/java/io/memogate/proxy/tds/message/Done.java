package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;

/**
 * A DONE token ([MS-TDS] 2.2.7.6): 0xFD (DONEPROC: 0xFE), status (2 bytes), the current command (2), a row count (8 from TDS 7.2
 * on), little-endian: the end of a statement's answer, and, without DONE_MORE, of the whole request's.
 */
public record Done(int token, int status, int command, long rowCount) {

    public static final int TOKEN = 0xFD;
    /** DONEPROC: the end of a stored procedure's answer, an RPC's, in the same layout. */
    public static final int PROC_TOKEN = 0xFE;
    public static final int DONE_FINAL = 0x00;
    public static final int DONE_MORE = 0x01;
    public static final int DONE_ERROR = 0x02;
    public static final int DONE_COUNT = 0x10;
    /** Acknowledges an ATTENTION: the request it cancelled has been answered to its end. */
    public static final int DONE_ATTN = 0x20;
    public static final int BYTES = 13;

    /** The final DONE of a request that failed. */
    public static final Done ERROR = new Done(TOKEN, DONE_ERROR, 0, 0);
    /** The final DONEPROC of an RPC that failed. */
    public static final Done PROC_ERROR = new Done(PROC_TOKEN, DONE_ERROR, 0, 0);
    /** The final DONE of a request withdrawn before it ran: nothing done, no rows. */
    public static final Done CANCELLED = new Done(TOKEN, DONE_FINAL, 0, 0);
    /** The final DONE that acknowledges an ATTENTION. */
    public static final Done ATTENTION = new Done(TOKEN, DONE_ATTN, 0, 0);

    public void encode(ByteBuf out) {
        out.writeByte(token).writeShortLE(status).writeShortLE(command).writeLongLE(rowCount);
    }
}
