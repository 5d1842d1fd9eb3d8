package io.memogate.proxy.pg.message.backend;

/**
 * Type bytes of the server's messages that the proxy relays without a record of its own
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html), and the one-byte answers to the
 * encryption requests. A message with a record carries its type as that record's {@code TYPE}
 * ({@link DataRow#TYPE}, {@link ReadyForQuery#TYPE}, {@link ErrorResponse#NOTICE_TYPE}, ...), so each byte is
 * named once. Named per leg because a byte means one message from the server and another from the client:
 * 'D' is DataRow here and Describe there, 'E' ErrorResponse and Execute ({@code frontend.FrontendType}).
 * Plain {@code byte} constants, so a switch on a frame's type byte stays a switch on a byte.
 */
public final class BackendType {

    /** ParseComplete ('1'). */
    public static final byte PARSE_COMPLETE = '1';
    /** CloseComplete ('3'). */
    public static final byte CLOSE_COMPLETE = '3';
    /** NoData ('n'): the statement or portal described returns no rows. */
    public static final byte NO_DATA = 'n';
    /** PortalSuspended ('s'): Execute stopped at its row limit; the portal has more. */
    public static final byte PORTAL_SUSPENDED = 's';
    /** CopyInResponse ('G'): the server now reads COPY FROM STDIN's data. */
    public static final byte COPY_IN_RESPONSE = 'G';
    /** CopyOutResponse ('H'): COPY TO STDOUT's data follows. */
    public static final byte COPY_OUT_RESPONSE = 'H';
    /** CopyBothResponse ('W'): streaming replication's COPY both ways. */
    public static final byte COPY_BOTH_RESPONSE = 'W';
    /** CopyData ('d'): a piece of COPY TO STDOUT's data. */
    public static final byte COPY_DATA = 'd';
    /** NegotiateProtocolVersion ('v'): the server takes an older minor version or refuses options. */
    public static final byte NEGOTIATE_PROTOCOL_VERSION = 'v';

    /**
     * 'S', the answer to an SSLRequest (a byte alone, no message): the server starts TLS
     * (https://www.postgresql.org/docs/current/protocol-flow.html#PROTOCOL-FLOW-SSL).
     */
    public static final byte ENCRYPTION_ACCEPTED = 'S';
    /** 'N', the answer to an SSLRequest or GSSENCRequest (a byte alone): the connection stays unencrypted. */
    public static final byte ENCRYPTION_REFUSED = 'N';

    private BackendType() {}
}
