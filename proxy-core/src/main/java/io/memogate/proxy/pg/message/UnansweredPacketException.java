package io.memogate.proxy.pg.message;

/**
 * A packet before the StartupMessage that PostgreSQL drops without a word: its ProcessStartupPacket
 * reports such faults (a length no startup packet has, a cancel request of the wrong length) with
 * COMMERROR, to the server's log only, and closes the connection. The session does the same: it logs
 * the reason and closes without sending a byte, where an ErrorResponse would be a message the client
 * never expects (a driver that wrote its Terminate before its StartupMessage reads it as an error).
 */
public final class UnansweredPacketException extends MalformedMessageException {

    public UnansweredPacketException(String message) {
        super(message);
    }
}
