package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.TdsWire.Message;
import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The RPCs the test TDS server answers, one connection's worth, written from [MS-TDS] and the procedures' documented
 * parameters: sp_executesql runs its statement; sp_prepare returns a new handle in a RETURNVALUE after the
 * RETURNSTATUS; sp_prepexec returns one and runs the statement, the handle after the rows (DONEINPROC with DONE_MORE,
 * RETURNSTATUS, RETURNVALUE, DONEPROC); sp_execute runs a handle's statement (error 8179 for a handle it never gave);
 * sp_unprepare forgets one. A SELECT "runs" as a batch does here: one row echoing its text (its INT the first
 * parameter's value for {@code SELECT @P0}); another statement counts one row. Several requests in one message are
 * answered in turn; a request without the parameter its procedure needs gets error 201. By ProcID or by name;
 * parameters of type INT (INTN) and Unicode text (NVARCHAR, PLP, NTEXT) are read, the rest of a request is not.
 * Test scope only.
 */
final class TestServerProcedures {

    private static final Pattern FIRST_PARAMETER = Pattern.compile("^\\s*SELECT\\s+@P0\\b", Pattern.CASE_INSENSITIVE);

    private final Map<Integer, String> prepared = new HashMap<>();
    private int nextHandle = 1;

    /**
     * The answer to {@code message}; {@code executed} gets the text of each statement run or prepared, {@code called}
     * the procedure's id.
     */
    byte[] answer(Message message, boolean tds72, List<String> executed, List<Integer> called) {
        ByteBuffer rpc = message.littleEndian();
        int[] at = {tds72 ? rpc.getInt(0) : 0};
        Tokens answers = new Tokens();
        while (true) {
            byte[] one = call(message, rpc, at, executed, called, tds72);
            boolean last = at[0] >= message.data().length;
            if (!last) {
                one[one.length - TdsTestServer.doneLength(tds72) + 1] |= 0x01; // DONE_MORE: another answer follows
                at[0]++;                     // the BatchFlag
            }
            answers.raw(one);
            if (last) {
                return answers.bytes();
            }
        }
    }

    /** One request from {@code cursor[0]}, which is left where the next begins. */
    private byte[] call(Message message, ByteBuffer rpc, int[] cursor, List<String> executed, List<Integer> called,
            boolean tds72) {
        int at = cursor[0];
        int nameLength = rpc.getShort(at) & 0xFFFF;
        at += 2;
        int procedure;
        if (nameLength == 0xFFFF) {
            procedure = rpc.getShort(at) & 0xFFFF;
            at += 2;
        } else {
            String name = new String(message.data(), at, 2 * nameLength, StandardCharsets.UTF_16LE);
            at += 2 * nameLength;
            procedure = switch (name.toLowerCase(Locale.ROOT).replace("sys.", "")) {
                case "sp_executesql" -> 10;
                case "sp_prepare" -> 11;
                case "sp_execute" -> 12;
                case "sp_prepexec" -> 13;
                case "sp_unprepare" -> 15;
                default -> 0;
            };
        }
        called.add(procedure);
        List<Object> parameters = new ArrayList<>();
        List<String> names = new ArrayList<>();
        cursor[0] = parameters(message.data(), rpc, at + 2, parameters, names, tds72 ? 0xFF : 0x80);
        int needed = switch (procedure) {
            case 11, 13 -> 3;
            case 10, 12, 15 -> 1;
            default -> 0;
        };
        if (parameters.size() < needed || (needed > 0 && parameters.get(needed - 1) == null)) {
            return TdsTestServer.error(201, 16, "Procedure or function " + procedure + " expects a parameter "
                    + "which was not supplied.", tds72);
        }
        switch (procedure) {
            case 10 -> {
                String text = (String) parameters.get(0);
                executed.add(text);
                return ran(text, after(parameters, 2), tds72);
            }
            case 11, 13 -> {
                String text = (String) parameters.get(2);
                int handle = nextHandle++;
                prepared.put(handle, text);
                executed.add(text);
                String handleName = names.isEmpty() ? "" : names.get(0);
                if (procedure == 11) {
                    // RETURNSTATUS first, then the handle
                    Tokens tokens = returnValue(new Tokens().u8(0x79).u32(0), handleName, handle, tds72);
                    return TdsTestServer.done(tokens, 0xFE, 0, 0, 0, tds72).bytes();
                }
                byte[] ran = ran(text, after(parameters, 3), tds72);
                Tokens tokens = new Tokens().raw(Arrays.copyOf(ran, ran.length - TdsTestServer.doneLength(tds72)));
                returnValue(tokens, handleName, handle, tds72); // after the rows, before the DONEPROC
                return TdsTestServer.done(tokens, 0xFE, 0, 0xE0, 0, tds72).bytes();
            }
            case 12 -> {
                int handle = (Integer) parameters.get(0);
                String text = prepared.get(handle);
                if (text == null) {
                    return TdsTestServer.error(8179, 16, "Could not find prepared statement with handle " + handle
                            + ".", tds72);
                }
                executed.add(text);
                return ran(text, after(parameters, 1), tds72);
            }
            case 15 -> {
                prepared.remove((Integer) parameters.get(0));
                return TdsTestServer.done(new Tokens().u8(0x79).u32(0), 0xFE, 0, 0, 0, tds72).bytes();
            }
            default -> {
                return TdsTestServer.error(2812, 16, "The test TDS server runs sp_executesql, sp_prepare, "
                        + "sp_prepexec, sp_execute and sp_unprepare only.", tds72);
            }
        }
    }

    /**
     * A SELECT's answer: its row, whose INT is the statement's first parameter for {@code SELECT @P0 ...} (so that each
     * execution's answer is its own), else the number after SELECT; anything else's: one row counted (DONEINPROC with
     * DONE_COUNT), as an UPDATE's.
     */
    private static byte[] ran(String text, List<Object> values, boolean tds72) {
        if (text.stripLeading().regionMatches(true, 0, "SELECT", 0, 6)) {
            boolean echoesParameter = FIRST_PARAMETER.matcher(text).find() && !values.isEmpty()
                    && values.get(0) instanceof Integer;
            int n = echoesParameter ? (Integer) values.get(0) : TdsTestServer.leadingNumber(text);
            return TdsTestServer.procedureRow(n, text, tds72);
        }
        Tokens tokens = TdsTestServer.done(new Tokens(), 0xFF, 0x11, 0xC5, 1, tds72);  // DONEINPROC: UPDATE, 1 row
        return TdsTestServer.done(tokens.u8(0x79).u32(0), 0xFE, 0, 0xE0, 0, tds72).bytes(); // RETURNSTATUS, DONEPROC
    }

    /** The values a statement gets: those after the procedure's own first {@code skipped}. */
    private static List<Object> after(List<Object> parameters, int skipped) {
        return parameters.subList(Math.min(skipped, parameters.size()), parameters.size());
    }

    /**
     * RETURNVALUE of the handle: ordinal 0, the parameter's name as the client sent it (empty when it sent none;
     * tedious takes the handle only from a parameter named {@code @handle}), status 1 (output), user type, flags,
     * INTN(4) and its value.
     */
    private static Tokens returnValue(Tokens tokens, String name, int handle, boolean tds72) {
        return TdsTestServer.userType(tokens.u8(0xAC).u16(0).bVarchar(name).u8(1), tds72).u16(0).u8(0x26).u8(4).u8(4)
                .u32(handle);
    }

    /**
     * The parameters up to the request's end (a BatchFlag, 0xFF, or 0x80 before TDS 7.2; a NoExecFlag, 0xFE) or the first of a type not read here: Integer (or
     * null), String (or null); where they end.
     */
    private static int parameters(byte[] data, ByteBuffer rpc, int at, List<Object> values, List<String> names,
            int batchFlag) {
        while (at < data.length && (data[at] & 0xFF) != batchFlag && (data[at] & 0xFF) != 0xFE) {
            names.add(new String(data, at + 1, 2 * (rpc.get(at) & 0xFF), StandardCharsets.UTF_16LE));
            at += 1 + 2 * (rpc.get(at) & 0xFF) + 1; // name, status
            int type = rpc.get(at) & 0xFF;
            if (type == 0x26) {
                int length = rpc.get(at + 2) & 0xFF;
                values.add(length == 4 ? rpc.getInt(at + 3) : null);
                at += 3 + length;
            } else if (type == 0x63) {                                // NTEXT: max length, collation, length
                at += 10;
                int length = rpc.getInt(at);
                values.add(length == -1 ? null : new String(data, at + 4, length, StandardCharsets.UTF_16LE));
                at += 4 + Math.max(length, 0);
            } else if (type == 0xE7 || type == 0xEF) {
                int maxLength = rpc.getShort(at + 1) & 0xFFFF;
                at += 8;
                if (maxLength != 0xFFFF) {
                    int length = rpc.getShort(at) & 0xFFFF;
                    values.add(length == 0xFFFF ? null : new String(data, at + 2, length, StandardCharsets.UTF_16LE));
                    at += 2 + (length == 0xFFFF ? 0 : length);
                } else {
                    long total = rpc.getLong(at);
                    at += 8;
                    if (total == -1) {
                        values.add(null);
                        continue;
                    }
                    StringBuilder text = new StringBuilder();
                    for (int chunk = rpc.getInt(at); chunk != 0; chunk = rpc.getInt(at)) {
                        text.append(new String(data, at + 4, chunk, StandardCharsets.UTF_16LE));
                        at += 4 + chunk;
                    }
                    at += 4;
                    values.add(text.toString());
                }
            } else {
                return data.length; // the rest is not read
            }
        }
        return at;
    }
}
