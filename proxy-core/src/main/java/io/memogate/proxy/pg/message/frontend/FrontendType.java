package io.memogate.proxy.pg.message.frontend;

/**
 * Type bytes of the client's messages that the proxy forwards without a record of its own
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html). A message with a record carries
 * its type as that record's {@code TYPE} ({@link Parse#TYPE}, {@link Sync#TYPE}, ...), so each byte is
 * named once. Named per leg because a byte means one message from the client and another from the server:
 * 'D' is Describe here and DataRow there, 'E' Execute and ErrorResponse ({@code backend.BackendType}).
 * Plain {@code byte} constants, so a switch on a frame's type byte stays a switch on a byte.
 */
public final class FrontendType {

    /** CopyData ('d'): a piece of COPY FROM STDIN's data. */
    public static final byte COPY_DATA = 'd';
    /** FunctionCall ('F'): the fast-path call of a function by OID; answered with its own ReadyForQuery. */
    public static final byte FUNCTION_CALL = 'F';

    private FrontendType() {}
}
