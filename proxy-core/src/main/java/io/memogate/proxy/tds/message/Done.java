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

    /**
     * The end of a refused batch of {@code requests} RPCs: a DONEPROC with DONE_ERROR for each, all but the last
     * with DONE_MORE, as the server ends each procedure of a batch.
     */
    public static Done[] procErrors(int requests) {
        Done[] dones = new Done[requests];
        for (int i = 0; i < requests; i++) {
            dones[i] = i == requests - 1 ? PROC_ERROR : new Done(PROC_TOKEN, DONE_ERROR | DONE_MORE, 0, 0);
        }
        return dones;
    }

    public void encode(ByteBuf out) {
        encode(out, true);
    }

    /** {@code wideRowCount}: the row count in 8 bytes (TDS 7.2 and later), else in 4 (TDS 7.1, as jTDS speaks it). */
    public void encode(ByteBuf out, boolean wideRowCount) {
        out.writeByte(token).writeShortLE(status).writeShortLE(command);
        if (wideRowCount) {
            out.writeLongLE(rowCount);
        } else {
            out.writeIntLE((int) rowCount);
        }
    }
}
