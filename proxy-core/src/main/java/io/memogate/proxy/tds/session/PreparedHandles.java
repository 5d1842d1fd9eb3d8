package io.memogate.proxy.tds.session;

import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.ReturnedHandle;
import io.netty.buffer.ByteBuf;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * The statements a session prepared, by the handle the server returned for them, so that sp_execute (and
 * sp_cursorexecute) by handle is estimated as its statement. sp_prepare's handles and the cursor procedures' are
 * apart, as on the server; sp_unprepare (sp_cursorunprepare) drops one. At most {@value #MAX_HANDLES} are kept
 * a session, the least recently used dropped first: a handle dropped here executes unestimated, as it does when the
 * server's answer named none. Used on the session's event loop only.
 */
final class PreparedHandles {

    static final int MAX_HANDLES = 4096;

    private final Map<Integer, String> statements = lru();
    private final Map<Integer, String> cursorStatements = lru();

    private static Map<Integer, String> lru() {
        return new LinkedHashMap<>(16, 0.75f, true) {
            @Override
            protected boolean removeEldestEntry(Map.Entry<Integer, String> eldest) {
                return size() > MAX_HANDLES;
            }
        };
    }

    /** The statement prepared under {@code handle}; empty when this session never saw it prepared. */
    Optional<String> statement(boolean cursor, int handle) {
        return Optional.ofNullable((cursor ? cursorStatements : statements).get(handle));
    }

    void drop(boolean cursor, int handle) {
        (cursor ? cursorStatements : statements).remove(handle);
    }

    int size() {
        return statements.size() + cursorStatements.size();
    }

    /**
     * Reads the answer to a prepare of {@code text} for its handle, and keeps the pair when it has one; the answer in
     * TDS 7.2's formats or later ({@code tds72}), or 7.1's.
     */
    Watch watch(boolean cursor, String text, boolean tds72) {
        return new Watch(cursor, text, tds72);
    }

    /** The reading of one prepare's answer, fed its packets by {@link Replies}. */
    final class Watch {
        private final boolean cursor;
        private final String text;
        private final ReturnedHandle reader;

        private Watch(boolean cursor, String text, boolean tds72) {
            this.cursor = cursor;
            this.text = text;
            this.reader = new ReturnedHandle(tds72);
        }

        void packet(ByteBuf packet) {
            reader.packet(packet, TdsPackets.HEADER_BYTES);
        }

        void answered() {
            reader.handle().ifPresent(handle -> (cursor ? cursorStatements : statements).put(handle, text));
        }
    }
}
