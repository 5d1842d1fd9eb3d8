package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Sync;
import io.netty.buffer.ByteBuf;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What {@link SessionStateCheck} found on a server connection: how much it holds that cannot be carried
 * to a new connection, and the settings and protocol-level prepared statements that can. Filled row by
 * row as the answer arrives; one instance per check.
 */
final class CarriedState {

    private long held = -1;
    private final Map<String, String> settings = new LinkedHashMap<>();
    private final List<Parse> statements = new ArrayList<>();

    /** One row of the check's answer: kind, name, value, parameter type OIDs ('{23,25}'); nulls as null. */
    void row(String kind, String name, String value, String types) {
        switch (kind) {
            case "held" -> held = Long.parseLong(value);
            case "setting" -> settings.put(name, value);
            case "statement" -> statements.add(new Parse(name, value, oids(types)));
            default -> throw new IllegalArgumentException("unknown row kind " + kind);
        }
    }

    /** Nothing the check saw keeps the connection, and the check answered at all. */
    boolean carriable() {
        return held == 0;
    }

    long held() {
        return held;
    }

    boolean isEmpty() {
        return settings.isEmpty() && statements.isEmpty();
    }

    /**
     * What gives a new connection the session's settings (one set_config call) and statements (a Parse
     * each), then a Sync: the server answers one ReadyForQuery, after an ErrorResponse if anything failed.
     */
    void encodeRestore(ByteBuf out) {
        if (!settings.isEmpty()) {
            String setAll = settings.entrySet().stream()
                    .map(setting -> "pg_catalog.set_config(" + SessionStateCheck.literal(setting.getKey()) + ", "
                            + SessionStateCheck.literal(setting.getValue()) + ", false)")
                    .collect(Collectors.joining(", ", "SELECT ", ""));
            new Parse("", setAll, List.of()).encode(out);
            new Bind("", "").encode(out);
            new Execute("", 0).encode(out);
        }
        statements.forEach(statement -> statement.encode(out));
        Sync.INSTANCE.encode(out);
    }

    private static List<Integer> oids(String array) {
        if (array == null || array.length() <= 2) {
            return List.of();
        }
        return Arrays.stream(array.substring(1, array.length() - 1).split(",")).map(Integer::valueOf).toList();
    }

    @Override
    public String toString() {
        return "held " + held + ", settings " + settings.keySet() + ", statements "
                + statements.stream().map(Parse::statementName).toList();
    }
}
