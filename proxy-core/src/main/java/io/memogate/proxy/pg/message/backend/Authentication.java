package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.List;

/**
 * Authentication* ('R'). The proxy relays authentication and never decides it; it only needs to see
 * AuthenticationOk, and to rewrite the SASL mechanism list when channel binding cannot work across it.
 * Requests it needs no detail of (cleartext, md5, SASL continue/final, GSS) stay {@link Other}.
 */
public sealed interface Authentication extends BackendMessage {

    char TYPE = 'R';
    int OK = 0;
    int SASL = 10;

    static Authentication decode(ByteBuf frame) {
        ByteBuf body = PgWire.body(frame, TYPE);
        int code = body.readInt();
        return switch (code) {
            case OK -> Ok.INSTANCE;
            case SASL -> Sasl.decodeMechanisms(body);
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
