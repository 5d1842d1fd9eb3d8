package io.memogate.proxy.pg.message;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import java.util.Arrays;
import java.util.HexFormat;

/**
 * The secret of a cancel key. Protocol 3.0 uses 4 bytes; protocol 3.2 (PostgreSQL 18) allows up to
 * 256, so it is kept as bytes. Immutable: the array never leaves this class.
 */
public final class SecretKey {

    /** Protocol 3.2 caps the secret at 256 bytes. */
    public static final int MAX_LENGTH = 256;

    private final byte[] bytes;

    private SecretKey(byte[] bytes) {
        this.bytes = bytes;
    }

    public static SecretKey read(ByteBuf buf, int length) {
        if (length < 4 || length > MAX_LENGTH) {
            throw new MalformedMessageException("cancel key secret must be 4 to 256 bytes, was " + length);
        }
        return new SecretKey(ByteBufUtil.getBytes(buf, buf.readerIndex(), length));
    }

    /** Takes ownership of the array: callers must not keep or change it. */
    public static SecretKey of(byte[] secret) {
        if (secret.length < 4 || secret.length > MAX_LENGTH) {
            throw new IllegalArgumentException("cancel key secret must be 4 to 256 bytes, was " + secret.length);
        }
        return new SecretKey(secret);
    }

    public static SecretKey ofInt(int secret) {
        return new SecretKey(new byte[] {
            (byte) (secret >>> 24), (byte) (secret >>> 16), (byte) (secret >>> 8), (byte) secret
        });
    }

    public int length() {
        return bytes.length;
    }

    public void writeTo(ByteBuf buf) {
        buf.writeBytes(bytes);
    }

    /** Compares in constant time, so a cancel request cannot guess a secret byte by byte from timing. */
    public boolean matches(SecretKey other) {
        return java.security.MessageDigest.isEqual(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof SecretKey that && Arrays.equals(bytes, that.bytes);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(bytes);
    }

    @Override
    public String toString() {
        // Never print a live secret into logs.
        return "SecretKey[" + bytes.length + " bytes]";
    }

    /** For tests and diagnostics only. */
    public String toHex() {
        return HexFormat.of().formatHex(bytes);
    }
}
