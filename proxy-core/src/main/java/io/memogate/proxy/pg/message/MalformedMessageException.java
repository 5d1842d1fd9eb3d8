package io.memogate.proxy.pg.message;

/**
 * A message whose content does not follow the protocol (a missing NUL, a count that runs past the
 * end). The session answers it with SQLSTATE 08P01 and closes that connection only, unless it is an
 * {@link UnansweredPacketException}.
 */
public class MalformedMessageException extends RuntimeException {

    public MalformedMessageException(String message) {
        super(message);
    }
}
