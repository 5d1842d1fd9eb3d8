package io.memogate.proxy.tds.message;

import io.netty.buffer.ByteBuf;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.Optional;

/**
 * Who an integrated login is, read from the client's SSPI message when it holds an NTLM AUTHENTICATE message
 * ([MS-NLMP] 2.2.1.3): its domain and user name, for the console (LOGIN7 carries no user name then). The message is
 * relayed unchanged; the server alone decides whether the login holds. Anything else (a Kerberos or SPNEGO token, a
 * message cut short) names no one.
 */
public final class NtlmAuthenticate {

    private static final byte[] SIGNATURE = "NTLMSSP\0".getBytes(StandardCharsets.US_ASCII);
    private static final int AUTHENTICATE = 3;
    private static final int DOMAIN_NAME = 28;
    private static final int USER_NAME = 36;
    private static final int NEGOTIATE_FLAGS = 60;
    private static final int FIXED_BYTES = 64;
    private static final int NEGOTIATE_UNICODE = 0x1;

    private NtlmAuthenticate() {
    }

    /** "DOMAIN\\user" (or "user" without a domain) of {@code data}, the SSPI message's data, left as it was. */
    public static Optional<String> account(ByteBuf data) {
        int start = data.readerIndex();
        if (data.readableBytes() < FIXED_BYTES || data.getUnsignedIntLE(start + 8) != AUTHENTICATE) {
            return Optional.empty();
        }
        for (int i = 0; i < SIGNATURE.length; i++) {
            if (data.getByte(start + i) != SIGNATURE[i]) {
                return Optional.empty();
            }
        }
        Charset charset = (data.getIntLE(start + NEGOTIATE_FLAGS) & NEGOTIATE_UNICODE) != 0
                ? StandardCharsets.UTF_16LE : StandardCharsets.US_ASCII;
        Optional<String> domain = field(data, DOMAIN_NAME, charset);
        Optional<String> user = field(data, USER_NAME, charset);
        if (domain.isEmpty() || user.isEmpty() || user.get().isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(domain.get().isEmpty() ? user.get() : domain.get() + "\\" + user.get());
    }

    /** A security buffer's text: its length (2 bytes), allocated length (2), offset from the message's start (4). */
    private static Optional<String> field(ByteBuf data, int field, Charset charset) {
        int start = data.readerIndex();
        int length = data.getUnsignedShortLE(start + field);
        long offset = data.getUnsignedIntLE(start + field + 4);
        if (offset + length > data.readableBytes()) {
            return Optional.empty();
        }
        return Optional.of(data.toString(start + (int) offset, length, charset));
    }
}
