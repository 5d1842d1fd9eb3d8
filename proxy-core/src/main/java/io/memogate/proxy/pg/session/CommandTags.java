package io.memogate.proxy.pg.session;

import io.netty.buffer.ByteBuf;

/** Reads CommandComplete tags in place, without decoding the message. */
final class CommandTags {

    private static final byte[] ROLLBACK = {'R', 'O', 'L', 'L', 'B', 'A', 'C', 'K', 0};

    private CommandTags() {}

    /**
     * Whether the CommandComplete at {@code index} says "ROLLBACK": the answer to ROLLBACK, ABORT, ROLLBACK
     * TO SAVEPOINT, and to COMMIT of a failed transaction.
     */
    static boolean isRollback(ByteBuf buf, int index, int length) {
        if (length - 4 != ROLLBACK.length) {
            return false;
        }
        int body = index + 5;
        for (int i = 0; i < ROLLBACK.length; i++) {
            if (buf.getByte(body + i) != ROLLBACK[i]) {
                return false;
            }
        }
        return true;
    }
}
