package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.TdsWire.Tokens;
import io.memogate.proxy.testing.ScriptedHook;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Random;

/**
 * The requests a logged-in TDS 7.4 client sends, built well-formed from [MS-TDS] 2.2.6.6 (RPC) and 2.2.6.7
 * (SQLBatch), each remembering where its length fields, type bytes and parameters are, so that a fuzz can break
 * exactly those: ALL_HEADERS (its total length, a transaction descriptor header), then for an RPC the procedure
 * (by name, or 0xFFFF and its ProcID), option flags and parameters (name, status, TYPE_INFO, value); for a batch
 * the text in UTF-16LE. Each statement carries a mark of its own ({@code /*fz-N*}{@code /}) to find it again in
 * what the test TDS server received.
 */
final class FuzzRequests {

    /** A field of {@code size} bytes at {@code at}. */
    record Field(int at, int size) {
    }

    /**
     * A request's data and where its parts are: {@code lengths} every length field, {@code types} the offset of
     * every parameter's type byte, {@code parameters} where each parameter begins; {@code marked} when it carries
     * a statement (sp_execute and the like carry a handle only), {@code refused} when that asks the scripted hook
     * to refuse it.
     */
    record Built(int type, byte[] data, String what, String mark, boolean marked, boolean refused,
                 List<Field> lengths, List<Integer> types, List<Integer> parameters) {
    }

    private static final byte[] COLLATION = {0x09, 0x04, (byte) 0xD0, 0x00, 0x34};
    private static final List<String> PROCEDURES = List.of("sp_executesql", "sp_prepare", "sp_execute", "sp_prepexec",
            "sp_unprepare", "sp_cursoropen", "sp_cursorprepexec", "sp_cursorexecute");
    private static final List<Integer> PROC_IDS = List.of(10, 11, 12, 13, 15, 2, 5, 4);

    private final Random random;
    private final Tokens tokens = new Tokens();
    private final List<Field> lengths = new ArrayList<>();
    private final List<Integer> types = new ArrayList<>();
    private final List<Integer> parameters = new ArrayList<>();
    private boolean marked;

    private FuzzRequests(Random random) {
        this.random = random;
        lengths.add(new Field(0, 4));
        tokens.u32(22).u32(18).u16(2).u64(0).u32(1); // ALL_HEADERS: total, then a transaction descriptor header
    }

    /** A request of one of the kinds at random, its statement marked for {@code number}, one in four to be refused. */
    static Built any(Random random, int number) {
        boolean refused = random.nextInt(4) == 0;
        String mark = "/*fz-" + number + "*/";
        // the mark first: NVARCHAR(MAX) chunks never cut it (the first chunk holds it whole)
        String text = mark + " SELECT " + number + " AS n" + (refused ? " " + ScriptedHook.REFUSE : "");
        FuzzRequests request = new FuzzRequests(random);
        if (random.nextInt(4) == 0) {
            request.tokens.raw(TdsWire.utf16(text));
            request.marked = true;
            return request.built(TdsWire.SQL_BATCH, "SQL batch", mark, refused);
        }
        int which = random.nextInt(PROCEDURES.size());
        String what = request.call(which, text);
        if (random.nextInt(6) == 0) { // two requests in one message: a BatchFlag, then an sp_executesql
            request.tokens.u8(0xFF);
            what += " then " + request.call(0, text.replace("SELECT", "SELECT 2,"));
        }
        return request.built(TdsWire.RPC, "RPC " + what, mark, refused);
    }

    /** A SQL batch of {@code text}, well-formed. */
    static byte[] batch(String text) {
        FuzzRequests request = new FuzzRequests(new Random(0));
        return request.tokens.raw(TdsWire.utf16(text)).bytes();
    }

    private Built built(int type, String what, String mark, boolean refused) {
        return new Built(type, tokens.bytes(), what, mark, marked, refused && marked, List.copyOf(lengths),
                List.copyOf(types), List.copyOf(parameters));
    }

    /** The procedure {@code which} with the parameters it documents, its statement {@code text}; what it is. */
    private String call(int which, String text) {
        String procedure = PROCEDURES.get(which);
        String how;
        if (random.nextBoolean()) {
            String name = random.nextInt(3) == 0 ? "SYS." + procedure.toUpperCase(Locale.ROOT) : procedure;
            lengths.add(new Field(tokens.size(), 2));
            tokens.u16(name.length()).raw(TdsWire.utf16(name));
            how = procedure + " by name";
        } else {
            tokens.u16(0xFFFF).u16(PROC_IDS.get(which));
            how = procedure + " by ProcID";
        }
        tokens.u16(0); // option flags
        switch (procedure) {
            case "sp_executesql" -> {
                statement(text);
                nvarchar("@p int");
                intn(7, false);
            }
            case "sp_prepare" -> {
                intn(null, true);
                nvarchar("@p int");
                statement(text);
                int4(1);
            }
            case "sp_prepexec" -> {
                intn(null, true);
                nvarchar("@p int");
                statement(text);
                intn(7, false);
            }
            case "sp_execute", "sp_unprepare" -> {
                int4(1 + random.nextInt(3));
                intn(7, false);
            }
            case "sp_cursoropen" -> {
                intn(null, true);
                statement(text);
                int4(0x1);
                int4(0x1);
                intn(0, true);
            }
            case "sp_cursorprepexec" -> {
                intn(null, true);
                intn(null, true);
                nvarchar("@p int");
                statement(text);
                int4(0x1);
                int4(0x1);
                intn(0, true);
            }
            default -> { // sp_cursorexecute: a handle, the cursor returned, options, rows
                int4(1);
                intn(null, true);
                intn(0, true);
            }
        }
        return how;
    }

    /** The statement as mssql-jdbc and SqlClient send it: NVARCHAR(4000), NVARCHAR(MAX) in chunks, or NTEXT. */
    private void statement(String text) {
        marked = true;
        switch (random.nextInt(3)) {
            case 0 -> nvarchar(text);
            case 1 -> plp(text);
            default -> ntext(text);
        }
    }

    private void begin(boolean output) {
        parameters.add(tokens.size());
        tokens.u8(0).u8(output ? 1 : 0); // no name; status: by reference (output) or not
        types.add(tokens.size());
    }

    private void nvarchar(String value) {
        begin(false);
        byte[] bytes = TdsWire.utf16(value);
        tokens.u8(0xE7).u16(8000).raw(COLLATION);
        lengths.add(new Field(tokens.size(), 2));
        tokens.u16(bytes.length).raw(bytes);
    }

    /** NVARCHAR(MAX): a total length of 8 bytes, then chunks of a 4-byte length, a chunk of 0 at the end. */
    private void plp(String value) {
        begin(false);
        byte[] bytes = TdsWire.utf16(value);
        tokens.u8(0xE7).u16(0xFFFF).raw(COLLATION);
        lengths.add(new Field(tokens.size(), 8));
        tokens.u64(bytes.length);
        int at = 0;
        while (at < bytes.length) {
            int chunk = Math.min(bytes.length - at, 2 * (at == 0 ? 16 : 1 + random.nextInt(20)));
            lengths.add(new Field(tokens.size(), 4));
            tokens.u32(chunk).raw(java.util.Arrays.copyOfRange(bytes, at, at + chunk));
            at += chunk;
        }
        lengths.add(new Field(tokens.size(), 4));
        tokens.u32(0);
    }

    private void ntext(String value) {
        begin(false);
        byte[] bytes = TdsWire.utf16(value);
        tokens.u8(0x63).u32(0x7FFFFFFE).raw(COLLATION);
        lengths.add(new Field(tokens.size(), 4));
        tokens.u32(bytes.length).raw(bytes);
    }

    /** INTN(4): its max length, then a length byte (0: NULL) and the value. */
    private void intn(Integer value, boolean output) {
        begin(output);
        tokens.u8(0x26).u8(4);
        lengths.add(new Field(tokens.size(), 1));
        if (value == null) {
            tokens.u8(0);
        } else {
            tokens.u8(4).u32(value);
        }
    }

    private void int4(int value) {
        begin(false);
        tokens.u8(0x38).u32(value);
    }
}
