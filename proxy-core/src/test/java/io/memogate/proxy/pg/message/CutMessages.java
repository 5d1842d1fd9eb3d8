package io.memogate.proxy.pg.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * Cuts a message short at every byte, its length word saying so, and decodes each cut: a decoder must
 * return a message or throw {@link MalformedMessageException} (answered 08P01), never another exception,
 * which a session would report as an internal error. The whole message must decode.
 */
final class CutMessages {

    /** A decoder under test; what it returns does not matter here. */
    @FunctionalInterface
    interface Decoder {
        void decode(ByteBuf frame);
    }

    private CutMessages() {}

    /** @param typeAndBody hex of the type byte and the body, without the length word, which is computed */
    static List<String> typedFailures(String name, String typeAndBody, Decoder decoder) {
        byte[] bytes = HexFormat.of().parseHex(typeAndBody);
        List<String> failures = new ArrayList<>();
        for (int body = 0; body < bytes.length; body++) {
            ByteBuf cut = Unpooled.buffer().writeByte(bytes[0]).writeInt(4 + body).writeBytes(bytes, 1, body);
            decodeCut(name, body, body == bytes.length - 1, () -> decoder.decode(cut), failures);
        }
        return failures;
    }

    /** @param body hex of an untyped packet's body (a startup packet's), after the length word */
    static List<String> untypedFailures(String name, String body, Decoder decoder) {
        byte[] bytes = HexFormat.of().parseHex(body);
        List<String> failures = new ArrayList<>();
        for (int length = 0; length <= bytes.length; length++) {
            ByteBuf cut = Unpooled.buffer().writeInt(4 + length).writeBytes(bytes, 0, length);
            decodeCut(name, length, length == bytes.length, () -> decoder.decode(cut), failures);
        }
        return failures;
    }

    private static void decodeCut(String name, int bodyBytes, boolean whole, Runnable decode, List<String> failures) {
        try {
            decode.run();
        } catch (MalformedMessageException e) {
            if (whole) {
                failures.add(name + " whole: " + e);
            }
        } catch (RuntimeException e) {
            failures.add(name + (whole ? " whole: " : " cut to " + bodyBytes + " body bytes: ") + e);
        }
    }
}
