package io.memogate.proxy.it.fuzz;

import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Breaks a valid message stream the ways a buggy driver, a corrupting middlebox or an attacker would:
 * whole messages duplicated, dropped, swapped or of an unknown type, a length word made smaller, larger,
 * negative or huge, then bytes flipped, replaced or inserted and the stream cut short. Each mutation is
 * described for the failure report.
 */
final class Mutator {

    /** Over the proxy's default limits.maxMessageBytes (64 MiB) and under PostgreSQL's 1 GB. */
    static final int OVER_PROXY_LIMIT = 100_000_000;

    private final Random random;
    private final List<byte[]> messages;
    private final List<String> descriptions = new ArrayList<>();
    /** Byte-level mutations drawn: applied to the joined stream, after the message-level ones. */
    private int byteMutations;

    private Mutator(Random random, List<byte[]> messages) {
        this.random = random;
        this.messages = new ArrayList<>(messages);
    }

    /** The mutated stream and what was done to it (nothing, for about a quarter of the cases). */
    record Mutated(byte[] bytes, List<String> descriptions) {}

    static Mutated mutate(Random random, List<byte[]> messages) {
        Mutator mutator = new Mutator(random, messages);
        int mutations = random.nextInt(4) == 0 ? 0 : 1 + random.nextInt(3);
        for (int i = 0; i < mutations && !mutator.messages.isEmpty(); i++) {
            if (random.nextInt(100) < 60) {
                mutator.messageMutation();
            } else {
                mutator.byteMutations++; // applied once the messages are joined
            }
        }
        byte[] bytes = concat(mutator.messages);
        for (int i = 0; i < mutator.byteMutations; i++) {
            bytes = mutator.byteMutation(bytes);
        }
        return new Mutated(bytes, mutator.descriptions);
    }

    private void messageMutation() {
        int index = random.nextInt(messages.size());
        byte[] message = messages.get(index);
        switch (random.nextInt(5)) {
            case 0 -> {
                messages.add(index, message.clone());
                descriptions.add("duplicated message " + index);
            }
            case 1 -> {
                messages.remove(index);
                descriptions.add("removed message " + index);
            }
            case 2 -> {
                int other = random.nextInt(messages.size());
                messages.set(index, messages.get(other));
                messages.set(other, message);
                descriptions.add("swapped messages " + index + " and " + other);
            }
            case 3 -> {
                int type = unknownType();
                byte[] body = new byte[random.nextInt(8)];
                random.nextBytes(body);
                messages.add(index, FrontendMessages.raw(type, body));
                descriptions.add("inserted a message of unknown type 0x" + Integer.toHexString(type)
                        + " before message " + index);
            }
            default -> {
                int length = newLength(readInt(message, 1));
                byte[] changed = message.clone();
                writeInt(changed, 1, length);
                messages.set(index, changed);
                descriptions.add("length of message " + index + " ('" + (char) message[0] + "') set to " + length);
            }
        }
    }

    private int newLength(int length) {
        return switch (random.nextInt(7)) {
            case 0 -> Math.max(0, length - 1 - random.nextInt(4)); // cuts the body: the next message starts early
            case 1 -> length + 1 + random.nextInt(20);             // takes the next message's first bytes
            case 2 -> -1 - random.nextInt(1000);
            case 3 -> random.nextInt(4);                           // cannot hold itself
            case 4 -> new int[] {0x7fffffff, 0x40000000, 0x3fffffff}[random.nextInt(3)]; // PostgreSQL refuses
            case 5 -> OVER_PROXY_LIMIT;
            default -> 10_001; // one over PostgreSQL's bound on Sync, Flush, Describe, Execute, Close, Terminate
        };
    }

    /** A type byte no client message has. */
    private int unknownType() {
        String known = "XCDEHSBcdfFpPQ";
        int type;
        do {
            type = random.nextInt(256);
        } while (known.indexOf(type) >= 0);
        return type;
    }

    private byte[] byteMutation(byte[] bytes) {
        if (bytes.length == 0) {
            return bytes;
        }
        int at = random.nextInt(bytes.length);
        byte[] out;
        switch (random.nextInt(4)) {
            case 0 -> {
                out = bytes.clone();
                int bit = random.nextInt(8);
                out[at] ^= (byte) (1 << bit);
                descriptions.add("flipped bit " + bit + " of byte " + at);
            }
            case 1 -> {
                out = bytes.clone();
                out[at] = (byte) random.nextInt(256);
                descriptions.add("replaced byte " + at + " with 0x" + Integer.toHexString(out[at] & 0xff));
            }
            case 2 -> {
                byte[] garbage = new byte[1 + random.nextInt(6)];
                random.nextBytes(garbage);
                ByteArrayOutputStream joined = new ByteArrayOutputStream();
                joined.write(bytes, 0, at);
                joined.writeBytes(garbage);
                joined.write(bytes, at, bytes.length - at);
                out = joined.toByteArray();
                descriptions.add("inserted " + garbage.length + " random bytes at " + at);
            }
            default -> {
                out = Arrays.copyOf(bytes, at);
                descriptions.add("cut the stream to its first " + at + " bytes");
            }
        }
        return out;
    }

    private static byte[] concat(List<byte[]> messages) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        messages.forEach(out::writeBytes);
        return out.toByteArray();
    }

    private static int readInt(byte[] bytes, int at) {
        return (bytes[at] & 0xff) << 24 | (bytes[at + 1] & 0xff) << 16 | (bytes[at + 2] & 0xff) << 8
                | bytes[at + 3] & 0xff;
    }

    private static void writeInt(byte[] bytes, int at, int value) {
        bytes[at] = (byte) (value >> 24);
        bytes[at + 1] = (byte) (value >> 16);
        bytes[at + 2] = (byte) (value >> 8);
        bytes[at + 3] = (byte) value;
    }
}
