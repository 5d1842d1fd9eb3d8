package io.memogate.proxy.it.fuzz;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * A client's protocol-3 messages as bytes: the type byte, the length word (counting itself), the body
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html). Each method returns one whole
 * message; the fuzz cases are lists of these before they are mutated.
 */
final class FrontendMessages {

    private FrontendMessages() {}

    static byte[] query(String sql) {
        return message('Q', body().cstring(sql));
    }

    static byte[] parse(String statement, String sql, int... parameterTypes) {
        Body body = body().cstring(statement).cstring(sql).int16(parameterTypes.length);
        for (int type : parameterTypes) {
            body.int32(type);
        }
        return message('P', body);
    }

    /** A Bind with text parameters and results in the default (text) format. */
    static byte[] bind(String portal, String statement, List<String> textParameters) {
        Body body = body().cstring(portal).cstring(statement).int16(0).int16(textParameters.size());
        for (String parameter : textParameters) {
            byte[] value = parameter.getBytes(StandardCharsets.UTF_8);
            body.int32(value.length).bytes(value);
        }
        return message('B', body.int16(0));
    }

    /** @param kind 'S' for a prepared statement, 'P' for a portal */
    static byte[] describe(char kind, String name) {
        return message('D', body().int8(kind).cstring(name));
    }

    static byte[] execute(String portal, int maxRows) {
        return message('E', body().cstring(portal).int32(maxRows));
    }

    /** @param kind 'S' for a prepared statement, 'P' for a portal */
    static byte[] close(char kind, String name) {
        return message('C', body().int8(kind).cstring(name));
    }

    static byte[] sync() {
        return message('S', body());
    }

    static byte[] flush() {
        return message('H', body());
    }

    static byte[] terminate() {
        return message('X', body());
    }

    static byte[] copyData(String data) {
        return message('d', body().bytes(data.getBytes(StandardCharsets.UTF_8)));
    }

    static byte[] copyDone() {
        return message('c', body());
    }

    static byte[] copyFail(String reason) {
        return message('f', body().cstring(reason));
    }

    static byte[] password(String password) {
        return message('p', body().cstring(password));
    }

    /** A message of any type byte, the body given as is. */
    static byte[] raw(int type, byte[] body) {
        return message(type, body().bytes(body));
    }

    /** The untyped StartupMessage of protocol 3.0 with these parameters, name then value. */
    static byte[] startup(String... parameters) {
        Body body = body().int32(3 << 16);
        for (String parameter : parameters) {
            body.cstring(parameter);
        }
        body.int8(0);
        byte[] content = body.out.toByteArray();
        return body().int32(4 + content.length).bytes(content).out.toByteArray();
    }

    private static byte[] message(int type, Body body) {
        byte[] content = body.out.toByteArray();
        return body().int8(type).int32(4 + content.length).bytes(content).out.toByteArray();
    }

    private static Body body() {
        return new Body();
    }

    /** Big-endian fields appended in order. */
    private static final class Body {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Body int8(int value) {
            out.write(value);
            return this;
        }

        Body int16(int value) {
            return int8(value >> 8).int8(value);
        }

        Body int32(int value) {
            return int16(value >> 16).int16(value);
        }

        Body cstring(String value) {
            return bytes(value.getBytes(StandardCharsets.UTF_8)).int8(0);
        }

        Body bytes(byte[] value) {
            out.writeBytes(value);
            return this;
        }
    }
}
