package io.memogate.broker.gateway;

import java.util.ArrayList;
import java.util.List;

/**
 * The ledger's entries by backend pid. A HashMap&lt;Long, ...&gt; would box the pid on every admission
 * (pids are beyond the Long cache), the only allocation on the gated path besides the ticket; this is
 * open addressing over the entries themselves, which carry their pid. Linear probing, at most half
 * full, and backward-shift deletion so that no tombstones build up as connections come and go.
 */
final class ConnectionTable {

    private ByteLedger.Connection[] slots = new ByteLedger.Connection[16];
    private int size;

    int size() {
        return size;
    }

    ByteLedger.Connection get(long id) {
        ByteLedger.Connection[] s = slots;
        int mask = s.length - 1;
        for (int i = home(id, mask); ; i = (i + 1) & mask) {
            ByteLedger.Connection c = s[i];
            if (c == null || c.id == id) {
                return c;
            }
        }
    }

    ByteLedger.Connection getOrCreate(long id) {
        ByteLedger.Connection found = get(id);
        if (found != null) {
            return found;
        }
        if (2 * (size + 1) > slots.length) {
            grow();
        }
        ByteLedger.Connection c = new ByteLedger.Connection(id);
        insert(slots, c);
        size++;
        return c;
    }

    ByteLedger.Connection remove(long id) {
        ByteLedger.Connection[] s = slots;
        int mask = s.length - 1;
        int hole = home(id, mask);
        while (s[hole] != null && s[hole].id != id) {
            hole = (hole + 1) & mask;
        }
        ByteLedger.Connection removed = s[hole];
        if (removed == null) {
            return null;
        }
        s[hole] = null;
        size--;
        // Pull back later entries of the run that the hole would cut off from their home slot.
        for (int j = (hole + 1) & mask; s[j] != null; j = (j + 1) & mask) {
            int k = home(s[j].id, mask);
            if (((hole - k) & mask) < ((j - k) & mask)) {
                s[hole] = s[j];
                s[j] = null;
                hole = j;
            }
        }
        return removed;
    }

    /** A copy of the entries, in no order; for checks, not for the admission path. */
    List<ByteLedger.Connection> entries() {
        List<ByteLedger.Connection> all = new ArrayList<>(size);
        for (ByteLedger.Connection c : slots) {
            if (c != null) {
                all.add(c);
            }
        }
        return all;
    }

    private void grow() {
        ByteLedger.Connection[] bigger = new ByteLedger.Connection[slots.length * 2];
        for (ByteLedger.Connection c : slots) {
            if (c != null) {
                insert(bigger, c);
            }
        }
        slots = bigger;
    }

    private static void insert(ByteLedger.Connection[] s, ByteLedger.Connection c) {
        int mask = s.length - 1;
        int i = home(c.id, mask);
        while (s[i] != null) {
            i = (i + 1) & mask;
        }
        s[i] = c;
    }

    /** Fibonacci hashing: pids are often consecutive, and the multiply spreads them over the table. */
    private static int home(long id, int mask) {
        long h = id * 0x9E3779B97F4A7C15L;
        return (int) (h ^ (h >>> 32)) & mask;
    }
}
