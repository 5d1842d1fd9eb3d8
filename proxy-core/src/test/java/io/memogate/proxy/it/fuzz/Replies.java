package io.memogate.proxy.it.fuzz;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a client read after logging in, taken apart as PostgreSQL's backend messages
 * (https://www.postgresql.org/docs/current/protocol-message-formats.html): whether every message's type,
 * length and fields parse with nothing left over and nothing cut short; the answers as tokens to compare
 * (everything but the texts of errors and notices, which differ between servers and proxies by design);
 * and the ids of inserts the client was told are committed.
 */
final class Replies {

    /** Backend types after login; a byte stream that shows another is out of step. */
    private static final String KNOWN_TYPES = "123ACDEGHINSTWZcdnstv";

    private final List<String> tokens = new ArrayList<>();
    private final List<Map<Character, String>> errors = new ArrayList<>();
    private final List<Integer> committed = new ArrayList<>();
    private final List<Integer> pending = new ArrayList<>();
    /** A ReadyForQuery said 'T' since the pending inserts came: only a COMMIT tag commits them. */
    private boolean pendingInBlock;
    private Optional<String> malformed = Optional.empty();

    private Replies() {}

    /** Reads as many whole messages as {@code bytes} holds; a partial one at the end counts as malformed. */
    static Replies parse(byte[] bytes) {
        Replies replies = new Replies();
        ByteBuffer in = ByteBuffer.wrap(bytes);
        while (in.hasRemaining() && replies.malformed.isEmpty()) {
            int at = in.position();
            if (in.remaining() < 5) {
                replies.malformed = Optional.of("the stream ends " + in.remaining() + " bytes into a message header at "
                        + at);
                break;
            }
            char type = (char) (in.get() & 0xff);
            int length = in.getInt();
            if (KNOWN_TYPES.indexOf(type) < 0 || length < 4 || length - 4 > in.remaining()) {
                replies.malformed = Optional.of(KNOWN_TYPES.indexOf(type) < 0
                        ? "unknown message type 0x" + Integer.toHexString(type) + " at " + at
                        : "message '" + type + "' at " + at + " of length " + length + " with " + in.remaining()
                                + " bytes left");
                break;
            }
            ByteBuffer body = in.slice(in.position(), length - 4);
            in.position(in.position() + length - 4);
            try {
                replies.message(type, body);
                if (body.hasRemaining()) {
                    replies.malformed = Optional.of("message '" + type + "' at " + at + " has " + body.remaining()
                            + " bytes after its fields");
                }
            } catch (RuntimeException e) {
                replies.malformed = Optional.of("message '" + type + "' at " + at + " does not parse: " + e);
            }
        }
        return replies;
    }

    /** Why the stream is not well-formed protocol, if it is not. */
    Optional<String> malformed() {
        return malformed;
    }

    /**
     * One token per message: its type and what identifies the answer (a tag, a severity and SQLSTATE, a
     * row's values, a transaction status), never an error's text.
     */
    List<String> tokens() {
        return tokens;
    }

    /** The fields of each ErrorResponse and NoticeResponse, in order. */
    List<Map<Character, String>> errors() {
        return errors;
    }

    /**
     * Ids whose insert the client saw answered and then saw committed: a COMMIT tag, or a ReadyForQuery
     * outside a transaction with none inside one before it, and no error or ROLLBACK between.
     */
    List<Integer> committedInserts() {
        return committed;
    }

    private void message(char type, ByteBuffer body) {
        switch (type) {
            case 'C' -> command(cstring(body));
            case 'D' -> tokens.add("D:" + String.join(",", dataRow(body)));
            case 'E', 'N' -> {
                Map<Character, String> fields = fields(body);
                errors.add(fields);
                tokens.add(type + ":" + fields.get('V') + ":" + fields.get('C'));
                if (type == 'E') {
                    pending.clear();
                    pendingInBlock = false;
                }
            }
            case 'Z' -> {
                char status = (char) body.get();
                if ("ITE".indexOf(status) < 0) {
                    throw new IllegalStateException("transaction status " + status);
                }
                tokens.add("Z:" + status);
                if (status == 'T') {
                    pendingInBlock = true;
                } else if (status == 'I') {
                    // From 'T' to 'I' without a COMMIT tag is no commit the client can count on: PostgreSQL 18
                    // answers a Query inside an unsynced batch 'T', then the Sync 'I', and keeps none of the rows.
                    if (!pendingInBlock) {
                        committed.addAll(pending);
                    }
                    pending.clear();
                    pendingInBlock = false;
                }
            }
            case 'T' -> tokens.add("T:" + rowDescription(body));
            case 'S' -> tokens.add("S:" + cstring(body) + "=" + cstring(body));
            case 't' -> {
                int count = body.getShort() & 0xffff;
                StringBuilder types = new StringBuilder("t:");
                for (int i = 0; i < count; i++) {
                    types.append(body.getInt()).append(',');
                }
                tokens.add(types.toString());
            }
            case 'G', 'H', 'W' -> {
                body.get();
                int columns = body.getShort() & 0xffff;
                for (int i = 0; i < columns; i++) {
                    body.getShort();
                }
                tokens.add(String.valueOf(type));
            }
            case 'A' -> {
                body.getInt();
                tokens.add("A:" + cstring(body) + ":" + cstring(body));
            }
            case 'd', 'v', 'V' -> {
                body.position(body.limit()); // contents not checked
                tokens.add(String.valueOf(type));
            }
            default -> tokens.add(String.valueOf(type)); // 1 2 3 I c n s: no body
        }
    }

    private void command(String tag) {
        tokens.add("C:" + tag);
        if (tag.equals("COMMIT")) {
            committed.addAll(pending);
        }
        if (tag.equals("COMMIT") || tag.equals("ROLLBACK")) {
            pending.clear();
            pendingInBlock = false;
        }
    }

    private List<String> dataRow(ByteBuffer body) {
        int columns = body.getShort() & 0xffff;
        List<String> values = new ArrayList<>();
        for (int i = 0; i < columns; i++) {
            int length = body.getInt();
            if (length < -1) {
                throw new IllegalStateException("column length " + length);
            }
            if (length == -1) {
                values.add("NULL");
                continue;
            }
            byte[] value = new byte[length];
            body.get(value);
            values.add(new String(value, StandardCharsets.UTF_8));
        }
        if (values.size() == 1 && values.getFirst().startsWith(CaseGenerator.INSERT_ANSWER_PREFIX)) {
            pending.add(Integer.parseInt(values.getFirst().substring(CaseGenerator.INSERT_ANSWER_PREFIX.length())));
        }
        return values;
    }

    /** Column names and types; not the table OIDs, which are another table's in each run. */
    private static String rowDescription(ByteBuffer body) {
        int columns = body.getShort() & 0xffff;
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < columns; i++) {
            out.append(cstring(body));
            body.getInt();          // table OID
            body.getShort();        // column number
            out.append('/').append(body.getInt()).append(','); // type OID
            body.getShort();        // type size
            body.getInt();          // type modifier
            body.getShort();        // format
        }
        return out.toString();
    }

    private static Map<Character, String> fields(ByteBuffer body) {
        Map<Character, String> fields = new HashMap<>();
        while (true) {
            byte code = body.get();
            if (code == 0) {
                return fields;
            }
            fields.put((char) code, cstring(body));
        }
    }

    private static String cstring(ByteBuffer body) {
        int start = body.position();
        while (body.get() != 0) {
            // to the terminating NUL; a missing one underflows, and the message does not parse
        }
        byte[] text = new byte[body.position() - start - 1];
        body.get(start, text);
        return new String(text, StandardCharsets.UTF_8);
    }
}
