package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.codec.BadHeaderException;
import io.memogate.proxy.pg.message.MalformedMessageException;
import io.netty.handler.codec.CorruptedFrameException;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.TooLongFrameException;
import java.util.Optional;

/**
 * Tells, from an exception a connection's pipeline raised, whether the peer's bytes broke the protocol
 * (a length word out of range, a message whose fields do not fit), and says how. Either peer may: a
 * client is answered 08P01 for it, a server is named in the 08P01 its client gets. Anything else (a
 * reset, a TLS failure) is not the peer's message and is not described here.
 */
final class ProtocolFaults {

    private ProtocolFaults() {}

    static Optional<String> describe(Throwable cause) {
        if (cause instanceof TooLongFrameException tooLong) {
            return Optional.of("message too long: " + tooLong.getMessage());
        }
        if (cause instanceof BadHeaderException badHeader) {
            return Optional.of(badHeader.getMessage()); // says what is wrong itself: not a length that cannot hold itself
        }
        if (cause instanceof CorruptedFrameException corrupted) {
            return Optional.of("invalid message length: " + corrupted.getMessage());
        }
        if (cause instanceof MalformedMessageException bad) {
            return Optional.of(bad.getMessage());
        }
        if (cause instanceof DecoderException && cause.getCause() instanceof MalformedMessageException bad) {
            return Optional.of(bad.getMessage()); // thrown inside a decoder, which wraps it
        }
        return Optional.empty();
    }
}
