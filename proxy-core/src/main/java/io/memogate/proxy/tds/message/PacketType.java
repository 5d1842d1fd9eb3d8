package io.memogate.proxy.tds.message;

/** The packet types of [MS-TDS] 2.2.3.1.1 the proxy tells apart. */
public final class PacketType {

    public static final int SQL_BATCH = 1;
    public static final int RPC = 3;
    /** Every message a server sends: tokens ([MS-TDS] 2.2.4), or the PRELOGIN response. */
    public static final int TABULAR_RESULT = 4;
    public static final int ATTENTION = 6;
    public static final int LOGIN7 = 16;
    public static final int SSPI = 17;
    public static final int PRELOGIN = 18;
    /** The first byte of a TLS handshake record: a TDS 8.0 client ({@code encrypt=strict}) starts with TLS. */
    public static final int TLS_HANDSHAKE = 0x16;

    private PacketType() {
    }
}
