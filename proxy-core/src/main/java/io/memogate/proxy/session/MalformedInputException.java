package io.memogate.proxy.session;

/**
 * What a wing's decoder throws for bytes its protocol cannot mean: the client is told so in its protocol and
 * the connection closed ({@link ClientLegHandler}). No stack trace: the message says all there is to say.
 */
public class MalformedInputException extends RuntimeException {

    public MalformedInputException(String message) {
        super(message, null, false, false);
    }
}
