package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What the proxy reads of the server's answer to a LOGIN7 ([MS-TDS] 3.2.5.1): whether it holds a LOGINACK (the
 * login succeeded), the packet size its ENVCHANGE confirms, which the proxy's own replies then respect, and whether
 * it routes the client to another server (ENVCHANGE type 20). The tokens of a login answer are walked by their
 * lengths; a token this reader does not know ends the walk, keeping what was read before it.
 *
 * @param packetSize the size of ENVCHANGE type 4; empty when the answer has none
 * @param routing the server the answer routes to; empty when it routes nowhere
 */
public record LoginResponse(boolean loggedIn, OptionalInt packetSize, Optional<Routing> routing) {

    private static final int LOGINACK = 0xAD;
    private static final int ENVCHANGE = 0xE3;
    private static final int INFO = 0xAB;
    private static final int SSPI = 0xED;
    private static final int FEDAUTHINFO = 0xEE;
    private static final int SESSIONSTATE = 0xE4;
    private static final int FEATUREEXTACK = 0xAE;
    private static final int ENV_PACKET_SIZE = 4;

    /**
     * Reads the tokens of {@code data} (the answer's data, without packet headers), leaving it as it was.
     *
     * @throws MalformedPacketException for a Routing ENVCHANGE that names no server the proxy could reach
     */
    public static LoginResponse read(ByteBuf data) {
        boolean loggedIn = false;
        OptionalInt packetSize = OptionalInt.empty();
        Optional<Routing> routing = Optional.empty();
        int at = data.readerIndex();
        int end = data.writerIndex();
        while (at < end) {
            int token = data.getUnsignedByte(at);
            if (token == Done.TOKEN) {
                at += Done.BYTES;
                continue;
            }
            if (token == FEATUREEXTACK) {
                at = afterFeatureAck(data, at + 1, end);
                continue;
            }
            boolean wide = token == FEDAUTHINFO || token == SESSIONSTATE;
            boolean known = wide || token == LOGINACK || token == ENVCHANGE || token == INFO || token == TdsError.TOKEN
                    || token == SSPI;
            if (!known || at + (wide ? 5 : 3) > end) {
                break;
            }
            long length = wide ? data.getUnsignedIntLE(at + 1) : data.getUnsignedShortLE(at + 1);
            int body = at + (wide ? 5 : 3);
            if (body + length > end) {
                break;
            }
            if (token == LOGINACK) {
                loggedIn = true;
            } else if (token == ENVCHANGE && length >= 2 && data.getUnsignedByte(body) == ENV_PACKET_SIZE) {
                packetSize = packetSize(data, body + 1, (int) (body + length));
            } else if (token == ENVCHANGE && length >= 1 && data.getUnsignedByte(body) == Routing.ENV_TYPE) {
                routing = Optional.of(Routing.decode(data, body + 1, (int) (body + length)));
            }
            at = (int) (body + length);
        }
        return new LoginResponse(loggedIn, packetSize, routing);
    }

    /** ENVCHANGE type 4's new value: a B_VARCHAR holding the size in decimal digits. */
    private static OptionalInt packetSize(ByteBuf data, int at, int end) {
        int chars = data.getUnsignedByte(at);
        if (at + 1 + 2 * chars > end) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of(Integer.parseInt(data.toString(at + 1, 2 * chars, StandardCharsets.UTF_16LE)));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    /** FEATUREEXTACK: features (an id byte, a 4-byte length, data) up to the 0xFF terminator. */
    private static int afterFeatureAck(ByteBuf data, int at, int end) {
        while (at < end) {
            if (data.getUnsignedByte(at) == 0xFF) {
                return at + 1;
            }
            if (at + 5 > end) {
                return end;
            }
            at += 5 + (int) Math.min(end, data.getUnsignedIntLE(at + 1));
        }
        return end;
    }
}
