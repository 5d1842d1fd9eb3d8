package io.memogate.proxy.pg.session;

import java.util.HashMap;
import java.util.Map;

/**
 * The SQL of the session's prepared statements, by name ("" is the unnamed statement, replaced by
 * every Parse), so a Bind can be admitted with the text the server is about to plan. Mirrors the
 * server's own per-session state, so it grows no more than the server's does.
 */
final class PreparedStatements {

    private final Map<String, String> sqlByName = new HashMap<>();

    /**
     * A Parse was forwarded. A named statement that exists already keeps its text, as on the server,
     * which rejects the second Parse (42P05); the unnamed one is replaced each time.
     */
    void parsed(String name, String sql) {
        if (name.isEmpty()) {
            sqlByName.put(name, sql);
        } else {
            sqlByName.putIfAbsent(name, sql);
        }
    }

    void closed(String name) {
        sqlByName.remove(name);
    }

    /** The statement's SQL, or "" when it was never prepared here (the server will report the error). */
    String sqlOf(String name) {
        return sqlByName.getOrDefault(name, "");
    }
}
