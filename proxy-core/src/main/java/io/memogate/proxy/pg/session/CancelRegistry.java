package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.SecretKey;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The cancel keys the proxy hands out. A client cancels by opening a new connection to the proxy with
 * the key from its BackendKeyData; the key must lead to its own session, and only a client that saw
 * the key may use it, so secrets are random and the server's real secrets never reach clients.
 *
 * <p>The process id of a key is the server process's, so that a client that compares it with
 * {@code pg_backend_pid()}, with the pid of a notification or with pg_stat_activity finds its own. Two
 * sessions may be given the same one (servers of two backends number their processes each on their own,
 * and a process id is used again once its process has exited while the session it was given to, recycled
 * onto another process, goes on), so a key is the pair: its secret is unique among the keys of that id.
 * Thread-safe: cancels arrive on any event loop.
 */
public final class CancelRegistry {

    /** The keys issued per process id; a list of one but for the rare shared id. Lists are never changed. */
    private final Map<Integer, List<Entry>> byProcessId = new ConcurrentHashMap<>();
    private final SecureRandom random = new SecureRandom();

    /** Cancels the session's current work; called from any thread. */
    @FunctionalInterface
    public interface Cancellable {
        void cancel();
    }

    /**
     * Issues a key for a session: the server's process id and a secret of the proxy's, of the length of
     * the server's own (4 bytes in protocol 3.0, longer in 3.2) so that clients see what they would see
     * without the proxy.
     */
    public BackendKeyData register(Cancellable session, int processId, int secretLength) {
        while (true) {
            byte[] secret = new byte[secretLength];
            random.nextBytes(secret);
            Entry entry = new Entry(SecretKey.of(secret), session);
            List<Entry> issued = byProcessId.compute(processId, (id, others) -> with(others, entry));
            if (issued.getLast() == entry) {
                return new BackendKeyData(processId, entry.key);
            }
        }
    }

    public void unregister(BackendKeyData key) {
        byProcessId.computeIfPresent(key.processId(), (id, entries) -> {
            List<Entry> left = entries.stream().filter(entry -> !entry.key.equals(key.secretKey())).toList();
            return left.isEmpty() ? null : left;
        });
    }

    /** The session a key belongs to; empty for an unknown process id or a wrong secret. */
    public Optional<Cancellable> lookup(int processId, SecretKey secret) {
        List<Entry> entries = byProcessId.getOrDefault(processId, List.of());
        for (Entry entry : entries) {
            if (entry.key.matches(secret)) {
                return Optional.of(entry.session);
            }
        }
        return Optional.empty();
    }

    /** How many keys are issued. */
    public int size() {
        return byProcessId.values().stream().mapToInt(List::size).sum();
    }

    /** {@code entries} and {@code entry}, unless its secret is taken already (then {@code entries} as they are). */
    private static List<Entry> with(List<Entry> entries, Entry entry) {
        if (entries == null) {
            return List.of(entry);
        }
        if (entries.stream().anyMatch(other -> other.key.equals(entry.key))) {
            return entries;
        }
        List<Entry> more = new ArrayList<>(entries);
        more.add(entry);
        return List.copyOf(more);
    }

    private record Entry(SecretKey key, Cancellable session) {}
}
