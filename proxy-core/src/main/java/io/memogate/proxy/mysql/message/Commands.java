package io.memogate.proxy.mysql.message;

/** The command bytes (protocol "Text Protocol", "Prepared Statements", "Utility Commands") the wing tells apart. */
public final class Commands {

    public static final int COM_QUIT = 0x01;
    public static final int COM_QUERY = 0x03;
    public static final int COM_FIELD_LIST = 0x04;
    public static final int COM_PROCESS_INFO = 0x0A;
    public static final int COM_CHANGE_USER = 0x11;
    public static final int COM_BINLOG_DUMP = 0x12;
    public static final int COM_STMT_PREPARE = 0x16;
    public static final int COM_STMT_EXECUTE = 0x17;
    public static final int COM_STMT_SEND_LONG_DATA = 0x18;
    public static final int COM_STMT_CLOSE = 0x19;
    public static final int COM_STMT_FETCH = 0x1C;
    public static final int COM_BINLOG_DUMP_GTID = 0x1E;
    public static final int COM_RESET_CONNECTION = 0x1F;
    /** MariaDB's batch execute ({@link Capabilities#MARIADB_STMT_BULK_OPERATIONS}): a statement id, then rows. */
    public static final int COM_STMT_BULK_EXECUTE = 0xFA;

    /** MariaDB's statement id in an execute pipelined behind its prepare: the statement prepared last. */
    public static final long LAST_PREPARED = 0xFFFFFFFFL;

    private Commands() {
    }
}
