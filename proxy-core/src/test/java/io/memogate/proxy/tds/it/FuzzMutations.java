package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.FuzzRequests.Built;
import io.memogate.proxy.tds.it.FuzzRequests.Field;
import java.io.ByteArrayOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

/**
 * Breaks a well-formed request ({@link FuzzRequests}) the ways a broken client or a hostile one would: in its data
 * (a length field set to a lie, the data cut inside a TYPE_INFO, a bogus type byte, parameters missing or doubled,
 * ALL_HEADERS with a wrong total, an odd number of bytes of UTF-16, garbage text, bytes changed) and in its packets
 * (bad status bits, a header's length a lie, packets of one message with other SPIDs and packet numbers, an
 * ATTENTION packet in the middle, another packet type in the middle, a huge declared length, a message over the
 * proxy's limit, the bytes cut short). What the proxy must make of the bytes is read off them as its framing reads
 * them ({@link Framing}).
 */
final class FuzzMutations {

    /** What a reader of packets makes of the bytes: whole messages; a broken header or mix; or it waits for more. */
    enum Framing { COMPLETE, BROKEN, INCOMPLETE }

    /**
     * A case: what was done, the bytes sent, and how they frame; {@code messages}: the whole messages in them;
     * {@code wellFormed}: left as built; {@code sound}: well-formed TDS, though its parameters may be too few or
     * too many for its procedure (which the server answers with an error of its own).
     */
    record Case(String what, Built request, byte[] bytes, Framing framing, int messages, boolean wellFormed,
                boolean sound) {
    }

    private FuzzMutations() {
    }

    static Case next(Random random, int number, int limit) {
        Built request = FuzzRequests.any(random, number);
        StringBuilder what = new StringBuilder(request.what());
        boolean[] sound = {false};
        byte[] data = data(random, request, what, sound);
        String dataBroken = what.toString();
        List<byte[]> packets = packets(random, request.type(), data);
        int framingKind = random.nextInt(16);
        switch (framingKind) {
            case 0 -> {
                byte[] packet = packets.get(random.nextInt(packets.size()));
                int status = pick(random, 0x00, 0x02, 0x03, 0x04, 0x08, 0x09, 0x11, 0x19, 0xFF, random.nextInt(256));
                packet[1] = (byte) status;
                what.append("; a packet's status set to 0x").append(Integer.toHexString(status));
            }
            case 1 -> {
                byte[] packet = packets.get(random.nextInt(packets.size()));
                int length = pick(random, random.nextInt(8), packet.length - 1, packet.length + 1, packet.length / 2,
                        0xFFFF, random.nextInt(0x10000));
                packet[2] = (byte) (length >> 8);
                packet[3] = (byte) length;
                what.append("; a packet's header says ").append(length).append(" bytes of ").append(packet.length);
            }
            case 2 -> {
                packets = split(random, request.type(), data, 2 + random.nextInt(5));
                for (byte[] packet : packets) {
                    packet[4] = (byte) random.nextInt(256);
                    packet[5] = (byte) random.nextInt(256);
                    packet[6] = (byte) random.nextInt(256);
                    packet[7] = (byte) random.nextInt(256);
                }
                what.append("; in ").append(packets.size()).append(" packets of random SPIDs and packet ids");
            }
            case 3 -> {
                packets = split(random, request.type(), data, 2 + random.nextInt(3));
                int status = pick(random, 0x01, 0x01, 0x00, 0x03);
                packets.add(1 + random.nextInt(packets.size() - 1),
                        new byte[] {TdsWire.ATTENTION, (byte) status, 0, 8, 0, 0, 1, 0});
                what.append("; an ATTENTION (status ").append(status).append(") between its packets");
            }
            case 4 -> {
                packets = split(random, request.type(), data, 2 + random.nextInt(3));
                int type = pick(random, TdsWire.SQL_BATCH, TdsWire.RPC, TdsWire.LOGIN7, 0x0E, random.nextInt(256));
                if (type == request.type() || type == TdsWire.ATTENTION) {
                    type = 0x07; // bulk load: another type all the same
                }
                packets.get(1 + random.nextInt(packets.size() - 1))[0] = (byte) type;
                what.append("; a packet of type ").append(type).append(" inside it");
            }
            case 5 -> {
                byte[] last = packets.get(packets.size() - 1);
                last[2] = (byte) 0xFF;
                last[3] = (byte) 0xFF;
                what.append("; its last packet's header says 65535 bytes");
            }
            case 6 -> {
                data = overLimit(random, limit);
                packets = random.nextBoolean() ? packets(TdsWire.SQL_BATCH, data, 4096)
                        : packets(TdsWire.SQL_BATCH, Arrays.copyOf(data, 0xFFFF - 8), 0xFFFF);
                what = new StringBuilder("a SQL batch of " + data.length + " bytes, over limits.maxMessageBytes ("
                        + limit + "), in " + packets.size() + " packets");
            }
            default -> {
                // the packets as they are: only the data is broken
            }
        }
        byte[] bytes = concat(packets);
        if (framingKind == 7 && random.nextBoolean()) {
            bytes = Arrays.copyOf(bytes, random.nextInt(bytes.length));
            what.append("; cut to ").append(bytes.length).append(" bytes");
        }
        int[] messages = new int[1];
        Framing framing = frame(bytes, limit, messages);
        boolean framed = what.toString().equals(dataBroken) && framing == Framing.COMPLETE;
        boolean wellFormed = framed && dataBroken.equals(request.what());
        return new Case(what.toString(), request, bytes, framing, messages[0], wellFormed, framed && sound[0]);
    }

    /** The request's data, broken in one of the ways a client may break it (or not at all), said in {@code what}. */
    private static byte[] data(Random random, Built request, StringBuilder what, boolean[] sound) {
        byte[] data = request.data().clone();
        switch (random.nextInt(10)) {
            case 0, 1 -> {
                Field field = request.lengths().get(random.nextInt(request.lengths().size()));
                long now = read(data, field);
                long lie = switch (field.size()) {
                    case 1 -> pick(random, 0, 1, 3, 5, 8, 0xFF, random.nextInt(256));
                    case 2 -> pick(random, 0, 1, (int) now + 1, (int) now - 1, 0x7FFF, 0xFFFE, 0xFFFF,
                            random.nextInt(0x10000));
                    case 4 -> pickLong(random, 0, 1, now + 1, now - 1, 0x7FFFFFFFL, 0xFFFFFFFEL, 0xFFFFFFFFL,
                            random.nextInt() & 0xFFFFFFFFL);
                    default -> pickLong(random, 0, 1, now + 1, now - 1, Long.MAX_VALUE, -2, -1, random.nextLong());
                };
                write(data, field, lie);
                what.append("; the ").append(field.size()).append("-byte length at ").append(field.at())
                        .append(" says ").append(lie).append(" instead of ").append(now);
            }
            case 2 -> {
                if (!request.types().isEmpty()) {
                    int type = request.types().get(random.nextInt(request.types().size()));
                    data = Arrays.copyOf(data, Math.min(data.length, type + 1 + random.nextInt(8)));
                } else {
                    data = Arrays.copyOf(data, random.nextInt(data.length));
                }
                what.append("; cut to ").append(data.length).append(" bytes (in a TYPE_INFO)");
            }
            case 3 -> {
                if (!request.types().isEmpty()) {
                    int type = request.types().get(random.nextInt(request.types().size()));
                    data[type] = (byte) pick(random, 0x00, 0xF3, 0xF0, 0x99, 0xFF, random.nextInt(256));
                    what.append("; the type byte at ").append(type).append(" set to ").append(data[type] & 0xFF);
                }
            }
            case 4 -> {
                List<Integer> starts = request.parameters();
                if (!starts.isEmpty() && random.nextBoolean()) {
                    int keep = random.nextInt(starts.size());
                    data = Arrays.copyOf(data, starts.get(keep));
                    sound[0] = true;
                    what.append("; only its first ").append(keep).append(" parameters");
                } else if (!starts.isEmpty()) {
                    int from = starts.get(random.nextInt(starts.size()));
                    byte[] extra = Arrays.copyOfRange(data, from, data.length);
                    data = concat(List.of(data, extra));
                    sound[0] = true;
                    what.append("; ").append(extra.length).append(" bytes of its parameters once more");
                } else {
                    what.append("; no parameters to count");
                }
            }
            case 5 -> {
                long lie = pickLong(random, 0, 1, 3, 5, 21, 23, data.length, data.length + 1L, 0xFFFFFFFFL,
                        random.nextInt() & 0xFFFFFFFFL);
                write(data, new Field(0, 4), lie);
                what.append("; ALL_HEADERS says ").append(lie).append(" bytes in ").append(data.length);
            }
            case 6 -> {
                data = Arrays.copyOf(data, data.length + (random.nextBoolean() ? -1 : 1));
                what.append("; ").append(data.length).append(" bytes, an odd number of UTF-16 bytes at its end");
            }
            case 7 -> {
                byte[] garbage = new byte[random.nextInt(200)];
                random.nextBytes(garbage);
                for (int i = 0; i + 1 < garbage.length; i += 2 * (1 + random.nextInt(8))) {
                    garbage[i] = 0;
                    garbage[i + 1] = (byte) 0xD8; // a lone high surrogate
                }
                int at = 22 + random.nextInt(Math.max(1, data.length - 22));
                data = concat(List.of(Arrays.copyOf(data, Math.min(at, data.length)), garbage));
                what.append("; from byte ").append(at).append(", ").append(garbage.length).append(" bytes of garbage");
            }
            case 8 -> {
                int changes = 1 + random.nextInt(3);
                for (int i = 0; i < changes; i++) {
                    data[random.nextInt(data.length)] = (byte) random.nextInt(256);
                }
                what.append("; ").append(changes).append(" bytes changed at random");
            }
            default -> sound[0] = true; // well-formed
        }
        return data;
    }

    /** A SQL batch over {@code limit}. */
    private static byte[] overLimit(Random random, int limit) {
        return FuzzRequests.batch("SELECT 1 /*" + "x".repeat(limit / 2 + random.nextInt(4096)) + "*/");
    }

    private static List<byte[]> packets(Random random, int type, byte[] data) {
        int size = random.nextInt(3) == 0 ? 8 + 1 + random.nextInt(600) : 4096;
        return packets(type, data, size);
    }

    private static List<byte[]> split(Random random, int type, byte[] data, int count) {
        return packets(type, data, 8 + Math.max(1, (data.length + count - 1) / count));
    }

    /** {@code data} in packets of at most {@code size} bytes, the last marked end of message. */
    static List<byte[]> packets(int type, byte[] data, int size) {
        List<byte[]> packets = new ArrayList<>();
        int at = 0;
        do {
            int chunk = Math.min(size - 8, data.length - at);
            byte[] packet = new byte[chunk + 8];
            packet[0] = (byte) type;
            packet[1] = (byte) (at + chunk == data.length ? 1 : 0);
            packet[2] = (byte) ((chunk + 8) >> 8);
            packet[3] = (byte) (chunk + 8);
            packet[6] = (byte) (packets.size() + 1);
            System.arraycopy(data, at, packet, 8, chunk);
            packets.add(packet);
            at += chunk;
        } while (at < data.length);
        return packets;
    }

    /**
     * What a TDS packet reader makes of {@code bytes}, as [MS-TDS] 2.2.3 frames them: a header announcing fewer
     * than its own 8 bytes, a packet of another type inside a message (an ATTENTION aside, which comes alone, marked
     * end of message), or a message over {@code limit}, is broken; bytes ending inside a packet or a message leave
     * it waiting.
     */
    static Framing frame(byte[] bytes, int limit, int[] messages) {
        int at = 0;
        int pending = -1;
        long joined = 0;
        while (at < bytes.length) {
            if (bytes.length - at < 4) {
                return Framing.INCOMPLETE;
            }
            int length = (bytes[at + 2] & 0xFF) << 8 | bytes[at + 3] & 0xFF;
            if (length < 8) {
                return Framing.BROKEN;
            }
            if (bytes.length - at < length) {
                return Framing.INCOMPLETE;
            }
            int type = bytes[at] & 0xFF;
            boolean ends = (bytes[at + 1] & 1) != 0;
            at += length;
            if (type == TdsWire.ATTENTION) {
                if (!ends) {
                    return Framing.BROKEN; // a reader would join what follows into it
                }
                messages[0]++;
                continue;
            }
            if (pending >= 0 && type != pending) {
                return Framing.BROKEN;
            }
            joined += length;
            if (joined > limit) {
                return Framing.BROKEN;
            }
            if (ends) {
                messages[0]++;
                pending = -1;
                joined = 0;
            } else {
                pending = type;
            }
        }
        return pending >= 0 ? Framing.INCOMPLETE : Framing.COMPLETE;
    }

    private static long read(byte[] data, Field field) {
        long value = 0;
        for (int i = field.size() - 1; i >= 0; i--) {
            value = value << 8 | data[field.at() + i] & 0xFF;
        }
        return value;
    }

    private static void write(byte[] data, Field field, long value) {
        for (int i = 0; i < field.size(); i++) {
            data[field.at() + i] = (byte) (value >>> (8 * i));
        }
    }

    private static int pick(Random random, int... choices) {
        return choices[random.nextInt(choices.length)];
    }

    private static long pickLong(Random random, long... choices) {
        return choices[random.nextInt(choices.length)];
    }

    static byte[] concat(List<byte[]> parts) {
        ByteArrayOutputStream all = new ByteArrayOutputStream();
        parts.forEach(all::writeBytes);
        return all.toByteArray();
    }
}
