package io.memogate.proxy.tds.tls;

/** What TLS protects on one leg of a TDS session. */
public enum LegProtection {
    /** Nothing: plaintext throughout. */
    NONE,
    /**
     * The LOGIN7 only ([MS-TDS] 2.2.6.5: both sides said ENCRYPT_OFF): TLS set up, the login sent in it, then
     * dropped.
     */
    LOGIN_ONLY,
    /** Everything after PRELOGIN: TLS set up inside PRELOGIN packets, then on TCP for the rest of the connection. */
    FULL,
    /** TDS 8.0: TLS first on TCP, PRELOGIN and everything after inside it. */
    STRICT;

    /** Whether a TLS handshake runs inside PRELOGIN packets after the PRELOGIN exchange. */
    public boolean handshakesInPrelogin() {
        return this == LOGIN_ONLY || this == FULL;
    }
}
