package io.memogate.proxy.tds.it;

import io.memogate.proxy.tds.it.TdsWire.Tokens;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Base64;
import java.util.Optional;
import java.util.Random;

/**
 * Federated authentication with an access token inside LOGIN7, for the test TDS server: the FEDAUTH feature of
 * LOGIN7's FeatureExt block ([MS-TDS] 2.2.6.4: feature 0x02, its options byte bFedAuthLibrary in bits 1-7 and
 * fFedAuthEcho in bit 0, then for SECURITYTOKEN a 4-byte length and the token, and a 32-byte nonce only when the
 * server sent one in PRELOGIN, which the test server never does), and the FEATUREEXTACK that acknowledges it
 * ([MS-TDS] 2.2.7.11: FEDAUTH with no data when no nonce was exchanged, which is what mssql-jdbc 13.6 expects, it
 * refuses an acknowledgement carrying data). The workflow where the token comes after LOGIN7 (a FEDAUTHINFO
 * token, then the client's FEDAUTH message) is not spoken here. Test scope only.
 */
final class TestServerFedAuth {

    /** PRELOGIN's FEDAUTHREQUIRED option, which a client logging in with a token sends. */
    static final int PRELOGIN_OPTION = 0x06;
    private static final int FEATURE = 0x02;
    private static final int SECURITYTOKEN = 0x01;
    /** OptionFlags3's fExtension: ibExtension points to the 4-byte offset of the FeatureExt block. */
    private static final int OPTION_FLAGS_3 = 27;
    private static final int F_EXTENSION = 0x10;
    private static final int EXTENSION = 56;
    /** How SQL Server names the login of an access token in its 18456 message. */
    static final String PRINCIPAL = "<token-identified principal>";

    /**
     * The one access token the test server accepts: shaped like an Entra ID JWT (three base64url parts), 2,514
     * characters long as real ones can be, so that its LOGIN7 (the token in UTF-16LE) is longer than TDS's default
     * packet of 4,096 bytes.
     */
    static final String ACCESS_TOKEN = token(new Random(0x7DA5L));

    private final int library;
    private final boolean echo;
    private final byte[] token;
    private final int extraBytes;

    private TestServerFedAuth(int library, boolean echo, byte[] token, int extraBytes) {
        this.library = library;
        this.echo = echo;
        this.token = token;
        this.extraBytes = extraBytes;
    }

    /** The FEDAUTH feature of the LOGIN7 {@code login}, if its FeatureExt block has one. */
    static Optional<TestServerFedAuth> of(ByteBuffer login) {
        if ((login.get(OPTION_FLAGS_3) & F_EXTENSION) == 0) {
            return Optional.empty();
        }
        int at = login.getInt(login.getShort(EXTENSION) & 0xFFFF);
        while ((login.get(at) & 0xFF) != 0xFF) {
            int id = login.get(at) & 0xFF;
            int length = login.getInt(at + 1);
            int data = at + 5;
            if (id == FEATURE) {
                int options = login.get(data) & 0xFF;
                byte[] token = new byte[0];
                if (options >> 1 == SECURITYTOKEN) {
                    token = new byte[login.getInt(data + 1)];
                    login.get(data + 5, token);
                }
                int used = options >> 1 == SECURITYTOKEN ? 5 + token.length : 1;
                return Optional.of(new TestServerFedAuth(options >> 1, (options & 1) != 0, token, length - used));
            }
            at = data + length;
        }
        return Optional.empty();
    }

    byte[] token() {
        return token.clone();
    }

    /**
     * Why the login is refused, empty when it is accepted: a library other than SECURITYTOKEN, an fFedAuthEcho
     * that does not repeat the FEDAUTHREQUIRED the server answered in PRELOGIN, a nonce the server never sent, or
     * another token than {@link #ACCESS_TOKEN} (as UTF-16LE, how mssql-jdbc sends it).
     */
    Optional<String> refusal(boolean answeredFedAuthRequired) {
        if (library != SECURITYTOKEN) {
            return Optional.of("the test TDS server takes access tokens in LOGIN7 only (library " + library + ")");
        }
        if (echo != answeredFedAuthRequired || extraBytes != 0) {
            return Optional.of("the FEDAUTH feature does not match the PRELOGIN exchange");
        }
        if (!Arrays.equals(token, ACCESS_TOKEN.getBytes(StandardCharsets.UTF_16LE))) {
            return Optional.of("Login failed for user '" + PRINCIPAL + "'.");
        }
        return Optional.empty();
    }

    /**
     * FEATUREEXTACK acknowledging FEDAUTH with {@code data} (none: no nonce was exchanged; some, for a test that the
     * acknowledgement reaches the client, which refuses one with data), then its terminator.
     */
    static byte[] acknowledgement(byte[] data) {
        return new Tokens().u8(0xAE).u8(FEATURE).u32(data.length).raw(data).u8(0xFF).bytes();
    }

    private static String token(Random random) {
        Base64.Encoder base64url = Base64.getUrlEncoder().withoutPadding();
        String header = base64url.encodeToString("{\"typ\":\"JWT\",\"alg\":\"RS256\"}".getBytes(StandardCharsets.UTF_8));
        byte[] claims = new byte[1600];
        byte[] signature = new byte[256];
        random.nextBytes(claims);
        random.nextBytes(signature);
        return header + "." + base64url.encodeToString(claims) + "." + base64url.encodeToString(signature);
    }
}
