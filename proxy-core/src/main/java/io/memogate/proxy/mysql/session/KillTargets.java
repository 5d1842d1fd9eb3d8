package io.memogate.proxy.mysql.session;

import io.netty.buffer.ByteBuf;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The sessions a {@code KILL QUERY <thread id>} may name, by their server and the thread id the server
 * gave them (which the proxy relays unchanged in the greeting, so drivers name it). Drivers cancel a
 * statement by sending that KILL on a connection of their own; the proxy carries it out itself when the
 * statement waits for admission, which the server cannot see. Thread-safe.
 */
public final class KillTargets {

    /** What Connector/J and mariadb-java-client send to cancel: {@code KILL QUERY 42}. */
    private static final Pattern KILL_QUERY = Pattern.compile("\\s*KILL\\s+(?:SOFT\\s+|HARD\\s+)?QUERY\\s+(\\d{1,10})\\s*;?\\s*",
            Pattern.CASE_INSENSITIVE);

    private final Map<String, MySqlSession> byThread = new ConcurrentHashMap<>();

    void register(String backend, long threadId, MySqlSession session) {
        byThread.put(key(backend, threadId), session);
    }

    void unregister(String backend, long threadId, MySqlSession session) {
        byThread.remove(key(backend, threadId), session);
    }

    Optional<MySqlSession> find(String backend, long threadId) {
        return Optional.ofNullable(byThread.get(key(backend, threadId)));
    }

    /** The thread id {@code text} kills the running statement of; empty when it is no KILL QUERY. */
    static Optional<Long> killedThread(String text) {
        Matcher kill = KILL_QUERY.matcher(text);
        return kill.matches() ? Optional.of(Long.parseLong(kill.group(1))) : Optional.empty();
    }

    /** A cheap look before decoding a text: it may be a KILL. */
    static boolean mayBeKill(ByteBuf payload) {
        int at = payload.readerIndex() + 1;
        int end = payload.writerIndex();
        while (at < end && Character.isWhitespace(payload.getByte(at))) {
            at++;
        }
        return end - at >= 4 && (payload.getByte(at) | 0x20) == 'k' && (payload.getByte(at + 1) | 0x20) == 'i'
                && (payload.getByte(at + 2) | 0x20) == 'l' && (payload.getByte(at + 3) | 0x20) == 'l';
    }

    private static String key(String backend, long threadId) {
        return backend + "/" + threadId;
    }
}
