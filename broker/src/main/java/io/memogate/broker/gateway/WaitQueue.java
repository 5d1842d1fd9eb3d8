package io.memogate.broker.gateway;

/**
 * A FIFO of waiting tickets, linked through the tickets themselves: enqueueing allocates nothing, and a
 * ticket that times out or is withdrawn leaves from the middle in O(1). A ticket is in at most one queue
 * at a time. Guarded by the {@link LocalGateways} lock.
 */
final class WaitQueue {

    /** The tier this queue waits for, or null for the byte budget. */
    final Tier tier;

    Ticket head;
    private Ticket tail;
    int size;

    WaitQueue(Tier tier) {
        this.tier = tier;
    }

    boolean isEmpty() {
        return size == 0;
    }

    void add(Ticket t) {
        t.queue = this;
        t.prev = tail;
        t.next = null;
        if (tail == null) {
            head = t;
        } else {
            tail.next = t;
        }
        tail = t;
        size++;
    }

    Ticket poll() {
        Ticket t = head;
        if (t != null) {
            remove(t);
        }
        return t;
    }

    void remove(Ticket t) {
        if (t.queue != this) {
            throw new IllegalStateException("ticket is not in the " + this + " queue");
        }
        if (t.prev == null) {
            head = t.next;
        } else {
            t.prev.next = t.next;
        }
        if (t.next == null) {
            tail = t.prev;
        } else {
            t.next.prev = t.prev;
        }
        t.prev = null;
        t.next = null;
        t.queue = null;
        size--;
    }

    /** 1-based place of {@code t}; linear, for the admin console only. */
    int positionOf(Ticket t) {
        int position = 1;
        for (Ticket q = head; q != null; q = q.next, position++) {
            if (q == t) {
                return position;
            }
        }
        throw new IllegalStateException("ticket is not in the " + this + " queue");
    }

    /** Checks the links and the count; for {@link LocalGateways#checkInvariants()}. */
    void check() {
        int count = 0;
        Ticket prev = null;
        for (Ticket t = head; t != null; prev = t, t = t.next) {
            if (t.queue != this || t.prev != prev) {
                throw new IllegalStateException(this + " queue: broken link at position " + (count + 1));
            }
            count++;
        }
        if (prev != tail || count != size) {
            throw new IllegalStateException(this + " queue: counted " + count + " waiters, size says " + size);
        }
    }

    @Override
    public String toString() {
        return tier == null ? "byte budget" : tier.toString();
    }
}
