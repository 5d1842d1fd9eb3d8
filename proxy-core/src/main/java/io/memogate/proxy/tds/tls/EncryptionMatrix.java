package io.memogate.proxy.tds.tls;

import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_NOT_SUP;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_OFF;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_ON;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_REQ;

import io.memogate.proxy.config.TlsMode;

/**
 * PRELOGIN's ENCRYPTION option ([MS-TDS] 2.2.6.5), negotiated on each leg on its own. The proxy is the server
 * of the client's leg and the client of the server's, and terminates TLS on both: it asks the server for what the
 * backend's {@code tls.mode} wants (and, under prefer, what the client wanted), and answers the client from its
 * listener's certificate, the client's wish and the server's demand.
 */
public final class EncryptionMatrix {

    private EncryptionMatrix() {
    }

    /**
     * What one TDS 7.x connection does, from the client's ENCRYPTION and the server's answer: nothing when either
     * does not support it (a side that demanded it then ends the connection), the login only when both said OFF,
     * else everything.
     */
    public static LegProtection agreed(int client, int server) {
        if (client == ENCRYPT_NOT_SUP || server == ENCRYPT_NOT_SUP) {
            return LegProtection.NONE;
        }
        return client == ENCRYPT_OFF && server == ENCRYPT_OFF ? LegProtection.LOGIN_ONLY : LegProtection.FULL;
    }

    /**
     * What the proxy asks of the server in the client's PRELOGIN. disable: ENCRYPT_NOT_SUP; require and
     * verify-full: ENCRYPT_ON; prefer: ENCRYPT_ON for a client that asked for it (so that what it wanted encrypted
     * is encrypted on both legs), else ENCRYPT_OFF, which keeps at least the login off the wire in clear.
     *
     * @param clientWants whether the client asked for encryption (ON, REQ, or TDS 8.0)
     */
    public static int request(TlsMode mode, boolean clientWants) {
        return switch (mode) {
            case DISABLE -> ENCRYPT_NOT_SUP;
            case PREFER -> clientWants ? ENCRYPT_ON : ENCRYPT_OFF;
            case REQUIRE, VERIFY_FULL -> ENCRYPT_ON;
        };
    }

    /**
     * What the proxy answers a TDS 7.x client. Without a certificate: ENCRYPT_NOT_SUP (a client that demands TLS
     * then ends the connection itself). With one: ENCRYPT_ON to a client that asked for it or when the server
     * demands it (what the client would have seen from the server itself); ENCRYPT_OFF (login only) to a client
     * that offered OFF; ENCRYPT_NOT_SUP to a client that cannot encrypt.
     */
    public static int answer(boolean listenerTls, int clientAsked, boolean serverDemands) {
        if (!listenerTls || clientAsked == ENCRYPT_NOT_SUP) {
            return ENCRYPT_NOT_SUP;
        }
        if (wants(clientAsked) || serverDemands) {
            return ENCRYPT_ON;
        }
        return ENCRYPT_OFF;
    }

    /** Whether a client's ENCRYPTION asks for everything encrypted. */
    public static boolean wants(int clientAsked) {
        return clientAsked == ENCRYPT_ON || clientAsked == ENCRYPT_REQ;
    }

    /**
     * Whether the server demands encryption of everything beyond what it was asked: ENCRYPT_REQ, or ENCRYPT_ON
     * when it was not asked for it (a server with Force Encryption).
     */
    public static boolean serverDemands(int asked, int answered) {
        return answered == ENCRYPT_REQ || (answered == ENCRYPT_ON && asked != ENCRYPT_ON);
    }
}
