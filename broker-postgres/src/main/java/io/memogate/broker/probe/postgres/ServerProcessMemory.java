package io.memogate.broker.probe.postgres;

import io.memogate.broker.probe.ProbeException;
import java.util.HashMap;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The private memory of each server process, read from /proc at every poll but for the backends that have only
 * waited for their client since the last read: a backend blocked on its client's socket allocates next to nothing,
 * so what it held then it holds now. With hundreds of pooled connections mostly idle, this spares the broker a read
 * of /proc per idle backend at every poll. Every {@link #FULL_READ_EVERY}th poll reads them all, so that the little a
 * waiting backend may still allocate (for catalog invalidations, notifications) is seen within that many polls.
 */
final class ServerProcessMemory {

    /** Polls between two reads of every process, idle or not. */
    static final int FULL_READ_EVERY = 30;

    /** Reads one process's private memory; empty when it is gone. */
    @FunctionalInterface
    interface Reader {
        OptionalLong privateBytes(int pid) throws ProbeException;
    }

    /** A read, and the state_change of the idle state it was read in (null: read while not idle). */
    private record Read(long bytes, Long idleSince) {
    }

    private Map<Integer, Read> last = Map.of();
    private int pollsSinceFullRead = FULL_READ_EVERY;

    /** The private bytes of every server process {@code activity} lists that has memory of its own. */
    Map<Integer, Long> read(Activity activity, Reader reader) throws ProbeException {
        boolean full = ++pollsSinceFullRead >= FULL_READ_EVERY;
        if (full) {
            pollsSinceFullRead = 0;
        }
        Map<Integer, Read> now = new HashMap<>();
        Map<Integer, Long> bytes = new HashMap<>();
        for (int pid : activity.serverPids()) {
            Long idleSince = activity.idleSince().get(pid);
            Read before = last.get(pid);
            Read read;
            if (!full && idleSince != null && before != null && idleSince.equals(before.idleSince())) {
                read = before;
            } else {
                OptionalLong found = reader.privateBytes(pid);
                if (found.isEmpty()) {
                    continue;
                }
                read = new Read(found.getAsLong(), idleSince);
            }
            now.put(pid, read);
            bytes.put(pid, read.bytes());
        }
        last = now;
        return bytes;
    }
}
