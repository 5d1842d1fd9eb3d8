package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.bouncycastle.crypto.digests.MD4Digest;

/**
 * The test TDS server's side of an NTLM login ([MS-NLMP], carried by TDS as [MS-TDS] 3.2.5.1 has it: the
 * NEGOTIATE message in LOGIN7's SSPI field, the CHALLENGE in an SSPI token, the AUTHENTICATE in an SSPI message),
 * one login's worth. It knows one Windows account, {@link #DOMAIN}\{@link #USER} with {@link #PASSWORD}, and verifies
 * the NTLMv2 response against that password, as a domain controller would for SQL Server; an NTLM (v1) response is
 * refused, as by a domain that allows NTLMv2 only. Test scope only.
 */
final class TestServerNtlm {

    /** The account the test TDS server knows: its NetBIOS domain, name and password. */
    static final String DOMAIN = "MEMOGATE";
    static final String USER = "memo";
    static final String PASSWORD = "secret";
    private static final byte[] SIGNATURE = "NTLMSSP\0".getBytes(StandardCharsets.US_ASCII);
    private static final int NEGOTIATE = 1;
    private static final int CHALLENGE = 2;
    private static final int AUTHENTICATE = 3;
    /** UNICODE, REQUEST_TARGET, NTLM, ALWAYS_SIGN, TARGET_TYPE_DOMAIN, EXTENDED_SESSIONSECURITY, TARGET_INFO, VERSION. */
    private static final int CHALLENGE_FLAGS = 0x1 | 0x4 | 0x200 | 0x8000 | 0x10000 | 0x80000 | 0x800000 | 0x02000000;
    private static final int CHALLENGE_HEADER = 56;
    /** NTLMv2_CLIENT_CHALLENGE: RespType, HiRespType, 6 reserved, timestamp, challenge, 4 reserved, then AvPairs. */
    private static final int BLOB_AV_PAIRS = 28;

    private final byte[] serverChallenge = new byte[8];
    private final byte[] targetInfo;

    private TestServerNtlm() {
        new SecureRandom().nextBytes(serverChallenge);
        // what a Windows server names itself with: NetBIOS and DNS names of its domain and itself, the time
        Tokens pairs = new Tokens();
        avPair(pairs, 2, DOMAIN);
        avPair(pairs, 1, "TDSTESTSERVER");
        avPair(pairs, 4, DOMAIN.toLowerCase(Locale.ROOT) + ".test");
        avPair(pairs, 3, "tdstestserver." + DOMAIN.toLowerCase(Locale.ROOT) + ".test");
        long fileTime = (System.currentTimeMillis() + 11_644_473_600_000L) * 10_000L;
        pairs.u16(7).u16(8).u64(fileTime);
        targetInfo = pairs.u16(0).u16(0).bytes();
    }

    /**
     * The exchange {@code sspi} (LOGIN7's SSPI field) begins, when it is an NTLM NEGOTIATE message; empty otherwise.
     */
    static Optional<TestServerNtlm> negotiated(byte[] sspi) {
        if (sspi.length < 12 || !Arrays.equals(sspi, 0, 8, SIGNATURE, 0, 8) || le(sspi).getInt(8) != NEGOTIATE) {
            return Optional.empty();
        }
        return Optional.of(new TestServerNtlm());
    }

    /** The SSPI token ([MS-TDS] 2.2.7.22) holding the CHALLENGE message. */
    byte[] challengeToken() {
        byte[] domain = TdsWire.utf16(DOMAIN);
        Tokens challenge = new Tokens().raw(SIGNATURE).u32(CHALLENGE)
                .u16(domain.length).u16(domain.length).u32(CHALLENGE_HEADER)
                .u32(CHALLENGE_FLAGS).raw(serverChallenge).raw(new byte[8])
                .u16(targetInfo.length).u16(targetInfo.length).u32(CHALLENGE_HEADER + domain.length)
                .raw(new byte[] {10, 0, 0x4F, 0x45, 0, 0, 0, 15})     // version 10.0.17743, NTLM revision 15
                .raw(domain).raw(targetInfo);
        byte[] message = challenge.bytes();
        return new Tokens().u8(0xED).u16(message.length).raw(message).bytes();
    }

    /** Who {@code authenticate} (an SSPI message's data) logs in as, as "DOMAIN\\user". */
    static String account(byte[] authenticate) {
        return field(authenticate, 28) + "\\" + field(authenticate, 36);
    }

    /**
     * Whether {@code authenticate} proves the password of the account it names: an AUTHENTICATE message for this
     * server's account whose NTLMv2 response is the HMAC of this exchange's challenge and its own blob, the blob
     * carrying the target information this server sent ([MS-NLMP] 3.3.2). The MIC a client may add is not checked.
     */
    boolean verifies(byte[] authenticate) {
        if (authenticate.length < 64 || !Arrays.equals(authenticate, 0, 8, SIGNATURE, 0, 8)
                || le(authenticate).getInt(8) != AUTHENTICATE) {
            return false;
        }
        String domain = field(authenticate, 28);
        String name = field(authenticate, 36);
        byte[] response = bytes(authenticate, 20);
        if (!domain.equalsIgnoreCase(DOMAIN) || !name.equalsIgnoreCase(USER) || response.length <= 24) {
            return false; // another account, or an NTLM (v1) response of 24 bytes
        }
        byte[] blob = Arrays.copyOfRange(response, 16, response.length);
        if (blob[0] != 1 || blob[1] != 1 || !avPairs(blob, BLOB_AV_PAIRS).containsAll(avPairs(targetInfo, 0))) {
            return false; // a client adds pairs of its own (flags, channel bindings, target name), and keeps these
        }
        byte[] key = hmacMd5(md4(TdsWire.utf16(PASSWORD)), TdsWire.utf16(name.toUpperCase(Locale.ROOT) + domain));
        byte[] proof = hmacMd5(key, concat(serverChallenge, blob));
        return MessageDigest.isEqual(proof, Arrays.copyOf(response, 16));
    }

    /** The AV pairs from {@code at} to MsvAvEOL, each as its bytes, EOL excluded. */
    private static List<ByteBuffer> avPairs(byte[] bytes, int at) {
        List<ByteBuffer> pairs = new ArrayList<>();
        ByteBuffer fields = le(bytes);
        while (at + 4 <= bytes.length && fields.getShort(at) != 0) {
            int end = Math.min(bytes.length, at + 4 + (fields.getShort(at + 2) & 0xFFFF));
            pairs.add(ByteBuffer.wrap(Arrays.copyOfRange(bytes, at, end)));
            at = end;
        }
        return pairs;
    }

    private static void avPair(Tokens pairs, int id, String value) {
        byte[] text = TdsWire.utf16(value);
        pairs.u16(id).u16(text.length).raw(text);
    }

    /** A security buffer's bytes: length (2), allocated (2), offset (4) at {@code at}. */
    private static byte[] bytes(byte[] message, int at) {
        ByteBuffer fields = le(message);
        int length = fields.getShort(at) & 0xFFFF;
        int offset = fields.getInt(at + 4);
        if (offset < 0 || offset + length > message.length) {
            return new byte[0];
        }
        return Arrays.copyOfRange(message, offset, offset + length);
    }

    /** A security buffer holding UTF-16LE text (NEGOTIATE_UNICODE, which both sides here set). */
    private static String field(byte[] message, int at) {
        return message.length < at + 8 ? "" : new String(bytes(message, at), StandardCharsets.UTF_16LE);
    }

    private static ByteBuffer le(byte[] bytes) {
        return ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
    }

    private static byte[] md4(byte[] data) {
        MD4Digest digest = new MD4Digest();
        digest.update(data, 0, data.length);
        byte[] hash = new byte[digest.getDigestSize()];
        digest.doFinal(hash, 0);
        return hash;
    }

    private static byte[] hmacMd5(byte[] key, byte[] data) {
        try {
            Mac mac = Mac.getInstance("HmacMD5");
            mac.init(new SecretKeySpec(key, "HmacMD5"));
            return mac.doFinal(data);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacMD5 is part of every JDK", e);
        }
    }

    private static byte[] concat(byte[] first, byte[] second) {
        byte[] both = Arrays.copyOf(first, first.length + second.length);
        System.arraycopy(second, 0, both, first.length, second.length);
        return both;
    }
}
