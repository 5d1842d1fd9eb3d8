package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.MalformedMessageException;
import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;

/**
 * Authentication* ('R'). The proxy relays a client's authentication and never decides it; it needs to see
 * AuthenticationOk, to rewrite the SASL mechanism list when channel binding cannot work across it, and
 * the password and SASL requests in detail when it logs in again itself to replace a server connection
 * ({@link io.memogate.proxy.pg.auth}). Requests it needs no detail of (GSS, SSPI) stay {@link Other}.
 */
public sealed interface Authentication extends BackendMessage {

    byte TYPE = 'R';
    int OK = 0;
    int CLEARTEXT_PASSWORD = 3;
    int MD5_PASSWORD = 5;
    int SASL = 10;
    int SASL_CONTINUE = 11;
    int SASL_FINAL = 12;

    static Authentication decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int code = PgWire.readInt(body);
        return switch (code) {
            case OK -> Ok.INSTANCE;
            case CLEARTEXT_PASSWORD -> CleartextPassword.INSTANCE;
            case MD5_PASSWORD -> new Md5Password(readBytes(body, 4, "AuthenticationMD5Password salt"));
            case SASL -> Sasl.decodeMechanisms(body);
            case SASL_CONTINUE -> new SaslContinue(readBytes(body, body.readableBytes(), "AuthenticationSASLContinue"));
            case SASL_FINAL -> new SaslFinal(readBytes(body, body.readableBytes(), "AuthenticationSASLFinal"));
            default -> new Other(code);
        };
    }

    /** AuthenticationOk: the server accepted the client. */
    record Ok() implements Authentication {
        public static final Ok INSTANCE = new Ok();

        @Override
        public void encode(ByteBuf out) {
            out.writeByte(TYPE);
            out.writeInt(8);
            out.writeInt(OK);
        }
    }

    /** AuthenticationSASL: the mechanisms the server offers, e.g. SCRAM-SHA-256 and SCRAM-SHA-256-PLUS. */
    record Sasl(List<String> mechanisms) implements Authentication {
        public static final String CHANNEL_BINDING_SUFFIX = "-PLUS";

        public Sasl {
            mechanisms = List.copyOf(mechanisms);
        }

        static Sasl decodeMechanisms(ByteBuf body) {
            List<String> mechanisms = new ArrayList<>();
            while (body.isReadable()) {
                String mechanism = PgWire.readCString(body);
                if (mechanism.isEmpty()) {
                    break;
                }
                mechanisms.add(mechanism);
            }
            return new Sasl(mechanisms);
        }

        public boolean offersChannelBinding() {
            return mechanisms.stream().anyMatch(m -> m.endsWith(CHANNEL_BINDING_SUFFIX));
        }

        public Sasl withoutChannelBinding() {
            return new Sasl(mechanisms.stream().filter(m -> !m.endsWith(CHANNEL_BINDING_SUFFIX)).toList());
        }

        @Override
        public void encode(ByteBuf out) {
            int lengthIndex = PgWire.beginMessage(out, TYPE);
            out.writeInt(SASL);
            mechanisms.forEach(m -> PgWire.writeCString(out, m));
            out.writeByte(0);
            PgWire.endMessage(out, lengthIndex);
        }
    }

    /** AuthenticationCleartextPassword: the server wants the password itself. */
    record CleartextPassword() implements Authentication {
        public static final CleartextPassword INSTANCE = new CleartextPassword();

        @Override
        public void encode(ByteBuf out) {
            out.writeByte(TYPE);
            out.writeInt(8);
            out.writeInt(CLEARTEXT_PASSWORD);
        }
    }

    /** AuthenticationMD5Password: the answer is "md5" + md5(md5(password + user) + salt) in hex. */
    record Md5Password(byte[] salt) implements Authentication {
        public Md5Password {
            salt = salt.clone();
        }

        @Override
        public byte[] salt() {
            return salt.clone();
        }

        @Override
        public void encode(ByteBuf out) {
            out.writeByte(TYPE);
            out.writeInt(12);
            out.writeInt(MD5_PASSWORD);
            out.writeBytes(salt);
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Md5Password that && Arrays.equals(salt, that.salt);
        }

        @Override
        public int hashCode() {
            return Arrays.hashCode(salt);
        }

        @Override
        public String toString() {
            return "Md5Password[salt=" + HexFormat.of().formatHex(salt) + "]";
        }
    }

    /** AuthenticationSASLContinue: a SCRAM server-first-message, as text. */
    record SaslContinue(byte[] data) implements Authentication {
        public SaslContinue {
            data = data.clone();
        }

        public String text() {
            return new String(data, StandardCharsets.UTF_8);
        }

        @Override
        public void encode(ByteBuf out) {
            encodeData(out, SASL_CONTINUE, data);
        }
    }

    /** AuthenticationSASLFinal: a SCRAM server-final-message, as text. */
    record SaslFinal(byte[] data) implements Authentication {
        public SaslFinal {
            data = data.clone();
        }

        public String text() {
            return new String(data, StandardCharsets.UTF_8);
        }

        @Override
        public void encode(ByteBuf out) {
            encodeData(out, SASL_FINAL, data);
        }
    }

    private static void encodeData(ByteBuf out, int code, byte[] data) {
        out.writeByte(TYPE);
        out.writeInt(8 + data.length);
        out.writeInt(code);
        out.writeBytes(data);
    }

    private static byte[] readBytes(ByteBuf body, int count, String what) {
        if (body.readableBytes() < count) {
            throw new MalformedMessageException(what + " is truncated");
        }
        byte[] bytes = new byte[count];
        body.readBytes(bytes);
        return bytes;
    }

    /** Any other request, forwarded as it came; encode exists for tests and writes the code only. */
    record Other(int code) implements Authentication {
        @Override
        public void encode(ByteBuf out) {
            out.writeByte(TYPE);
            out.writeInt(8);
            out.writeInt(code);
        }
    }
}
