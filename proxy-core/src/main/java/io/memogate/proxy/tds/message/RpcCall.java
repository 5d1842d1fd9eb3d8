package io.memogate.proxy.tds.message;

import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one RPC request asks of the server, as far as admission cares: the statement text it carries (to estimate),
 * and the prepared handle it names (sp_execute, sp_unprepare and their cursor forms). A prepare's own handle is not
 * in the request: the server returns it ({@link ReturnedHandle}).
 */
public record RpcCall(Procedure procedure, Optional<String> text, OptionalInt handle) {

    /** The system procedures ([MS-TDS] 2.2.6.6 ProcIDs) whose statement or handle is read. */
    public enum Procedure {
        SP_CURSOROPEN(2, false),
        SP_CURSORPREPARE(3, true),
        SP_CURSOREXECUTE(4, true),
        SP_CURSORPREPEXEC(5, true),
        SP_CURSORUNPREPARE(6, true),
        SP_EXECUTESQL(10, false),
        SP_PREPARE(11, false),
        SP_EXECUTE(12, false),
        SP_PREPEXEC(13, false),
        SP_UNPREPARE(15, false),
        /** Any other procedure, called by id or by name: relayed unread. */
        OTHER(0, false);

        private final int id;
        private final boolean cursor;

        Procedure(int id, boolean cursor) {
            this.id = id;
            this.cursor = cursor;
        }

        /** The procedure of a ProcID. */
        static Procedure byId(int id) {
            for (Procedure p : values()) {
                if (p.id == id && p != OTHER) {
                    return p;
                }
            }
            return OTHER;
        }

        /** The procedure of a name as sent ("sp_prepexec", "sys.sp_prepexec", any case). */
        static Procedure byName(String name) {
            String bare = name.toLowerCase(java.util.Locale.ROOT);
            bare = bare.startsWith("sys.") ? bare.substring(4) : bare;
            for (Procedure p : values()) {
                if (p != OTHER && p.name().toLowerCase(java.util.Locale.ROOT).equals(bare)) {
                    return p;
                }
            }
            return OTHER;
        }

        /** Its handles are the cursor procedures' own, apart from sp_prepare's. */
        public boolean cursor() {
            return cursor;
        }

        /** The server answers it with a new prepared handle, its first output parameter. */
        public boolean returnsHandle() {
            return this == SP_PREPARE || this == SP_PREPEXEC || this == SP_CURSORPREPARE || this == SP_CURSORPREPEXEC;
        }

        /** It runs (or prepares) the statement it carries. */
        public boolean carriesText() {
            return this == SP_EXECUTESQL || this == SP_CURSOROPEN || returnsHandle();
        }

        /** It runs the statement of a handle prepared before. */
        public boolean executesHandle() {
            return this == SP_EXECUTE || this == SP_CURSOREXECUTE;
        }

        /** It drops a prepared handle. */
        public boolean dropsHandle() {
            return this == SP_UNPREPARE || this == SP_CURSORUNPREPARE;
        }
    }
}
