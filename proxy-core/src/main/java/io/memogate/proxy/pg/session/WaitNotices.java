package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.WaitNotice;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.session.StatementAdmission;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;

/** A queued statement's client told where it waits, in a NoticeResponse between two of the server's messages. */
final class WaitNotices implements StatementAdmission.Notices {

    private final Channel client;
    private final ServerResponses responses;

    WaitNotices(Channel client, ServerResponses responses) {
        this.client = client;
        this.responses = responses;
    }

    /** Not while the client has part of a row and the rest is to come: the notice would be read as the row's. */
    @Override
    public boolean betweenMessages() {
        return !responses.clientMidMessage();
    }

    @Override
    public void send(WaitNotice notice) {
        ByteBuf out = client.alloc().buffer();
        PgErrors.waitingNotice(notice).encode(out);
        client.writeAndFlush(out, client.voidPromise());
    }
}
