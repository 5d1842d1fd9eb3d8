package io.memogate.proxy.pg.message.frontend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;

/**
 * The client's answers to an authentication request, all of type 'p': which one a frame is depends on
 * the request it answers, so a frame is decoded by the one the caller expects. The proxy reads them
 * while it relays a login only to learn whether it could log in again itself ({@link
 * io.memogate.proxy.pg.auth.LoginObserver}), and writes them when it does.
 */
public sealed interface PasswordResponse extends FrontendMessage {

    byte TYPE = 'p';

    /** PasswordMessage: the password in clear, or "md5" and the hex digest. */
    record Password(String password) implements PasswordResponse {

        public static Password decode(ByteBuf frame) {
            return new Password(PgWire.readCString(PgWire.body(frame, TYPE)));
        }

        @Override
        public void encode(ByteBuf out) {
            int lengthIndex = PgWire.beginMessage(out, TYPE);
            PgWire.writeCString(out, password);
            PgWire.endMessage(out, lengthIndex);
        }

        @Override
        public String toString() {
            return "Password[***]";
        }
    }

    /** SASLInitialResponse: the chosen mechanism and the SCRAM client-first-message. */
    record SaslInitial(String mechanism, String message) implements PasswordResponse {

        public static SaslInitial decode(ByteBuf frame) {
            ByteBuf body = PgWire.body(frame, TYPE);
            String mechanism = PgWire.readCString(body);
            if (body.readableBytes() < 4) {
                throw new MalformedMessageException("SASLInitialResponse is truncated");
            }
            int length = body.readInt();
            if (length < 0 || length > body.readableBytes()) {
                throw new MalformedMessageException("SASLInitialResponse has a bad length " + length);
            }
            return new SaslInitial(mechanism, body.readCharSequence(length, StandardCharsets.UTF_8).toString());
        }

        @Override
        public void encode(ByteBuf out) {
            byte[] data = message.getBytes(StandardCharsets.UTF_8);
            int lengthIndex = PgWire.beginMessage(out, TYPE);
            PgWire.writeCString(out, mechanism);
            out.writeInt(data.length);
            out.writeBytes(data);
            PgWire.endMessage(out, lengthIndex);
        }
    }

    /** SASLResponse: the SCRAM client-final-message. */
    record SaslResponse(String message) implements PasswordResponse {

        public static SaslResponse decode(ByteBuf frame) {
            ByteBuf body = PgWire.body(frame, TYPE);
            return new SaslResponse(body.readCharSequence(body.readableBytes(), StandardCharsets.UTF_8).toString());
        }

        @Override
        public void encode(ByteBuf out) {
            int lengthIndex = PgWire.beginMessage(out, TYPE);
            out.writeCharSequence(message, StandardCharsets.UTF_8);
            PgWire.endMessage(out, lengthIndex);
        }
    }
}
