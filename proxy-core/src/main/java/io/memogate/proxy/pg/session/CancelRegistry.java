package io.memogate.proxy.pg.session;

import io.memogate.proxy.pg.message.SecretKey;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import java.security.SecureRandom;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The cancel keys the proxy hands out. A client cancels by opening a new connection to the proxy with
 * the key from its BackendKeyData; the key must lead to its own session, and only a client that saw
 * the key may use it, so secrets are random and the server's real keys never reach clients.
 * Thread-safe: cancels arrive on any event loop.
 */
public final class CancelRegistry {

    private final Map<Integer, Entry> byProcessId = new ConcurrentHashMap<>();
    private final AtomicInteger nextProcessId = new AtomicInteger(1);
    private final SecureRandom random = new SecureRandom();

    /** Cancels the session's current work; called from any thread. */
    @FunctionalInterface
    public interface Cancellable {
        void cancel();
    }

    /**
     * Issues a key for a session. The secret has the length of the server's own (4 bytes in protocol
     * 3.0, longer in 3.2) so that clients see what they would see without the proxy.
     */
    public BackendKeyData register(Cancellable session, int secretLength) {
        while (true) {
            int processId = nextProcessId.getAndUpdate(id -> id == Integer.MAX_VALUE ? 1 : id + 1);
            byte[] secret = new byte[secretLength];
            random.nextBytes(secret);
            SecretKey key = SecretKey.of(secret);
            if (byProcessId.putIfAbsent(processId, new Entry(key, session)) == null) {
                return new BackendKeyData(processId, key);
            }
        }
    }

    public void unregister(BackendKeyData key) {
        byProcessId.computeIfPresent(key.processId(), (id, entry) -> entry.key.equals(key.secretKey()) ? null : entry);
    }

    /** The session a key belongs to; empty for an unknown process id or a wrong secret. */
    public Optional<Cancellable> lookup(int processId, SecretKey secret) {
        Entry entry = byProcessId.get(processId);
        return entry != null && entry.key.matches(secret) ? Optional.of(entry.session) : Optional.empty();
    }

    public int size() {
        return byProcessId.size();
    }

    private record Entry(SecretKey key, Cancellable session) {}
}
