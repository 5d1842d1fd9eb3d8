package io.memogate.proxy.tds.session;

import io.memogate.proxy.admission.SessionInfo;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.NtlmAuthenticate;
import io.memogate.proxy.tds.message.PacketType;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Who an integrated login is, for the console: its LOGIN7 names no user, so the account comes from the client's
 * NTLM AUTHENTICATE message, read as the SSPI message is relayed unchanged.
 */
final class IntegratedLogin {

    private IntegratedLogin() {
    }

    /** {@code info} with the user {@code message} names, when it is an SSPI message naming one; else as it was. */
    static SessionInfo named(SessionInfo info, ByteBuf message, ByteBufAllocator alloc) {
        if (info == null || !info.user().isEmpty() || TdsPackets.type(message) != PacketType.SSPI) {
            return info;
        }
        ByteBuf data = TdsPackets.data(message, alloc);
        try {
            return NtlmAuthenticate.account(data)
                    .map(account -> new SessionInfo(account, info.database(), info.applicationName(),
                            info.clientAddress()))
                    .orElse(info);
        } finally {
            data.release();
        }
    }
}
