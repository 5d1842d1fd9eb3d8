package io.memogate.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelOutboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

/**
 * Back-pressure between a session's legs, as every wing gets it: a client is read only when its wing allows
 * it and the server can take more of what it sends, a server only when the client can take more of its
 * answers, and what one leg sent goes out to the other in one flush at the end of its read.
 */
class SessionLegsTest {

    /** Counts the reads asked of a leg (AUTO_READ is off: each is one more socket read). */
    private static final class Reads extends ChannelOutboundHandlerAdapter {
        int count;

        @Override
        public void read(ChannelHandlerContext ctx) {
            count++;
            ctx.read();
        }
    }

    private final Reads clientReads = new Reads();
    private final Reads serverReads = new Reads();
    private final EmbeddedChannel client = new EmbeddedChannel(clientReads);
    private final EmbeddedChannel server = new EmbeddedChannel(serverReads);
    private SessionLegs.ClientRead clientRead = SessionLegs.ClientRead.WHEN_SERVER_WRITABLE;
    private boolean readAhead;
    private boolean ended;
    private final SessionLegs legs = new SessionLegs(client, new SessionLegs.Pace() {
        @Override
        public SessionLegs.ClientRead clientRead() {
            return clientRead;
        }

        @Override
        public boolean serverReadAhead() {
            return readAhead;
        }

        @Override
        public boolean ended() {
            return ended;
        }
    });

    {
        client.config().setAutoRead(false);
        server.config().setAutoRead(false);
        clientReads.count = 0;
        serverReads.count = 0;
        legs.server(server);
    }

    private static void writable(EmbeddedChannel leg, boolean writable) {
        leg.unsafe().outboundBuffer().setUserDefinedWritability(1, writable);
    }

    @Test
    void whatTheClientSentGoesToTheServerInOneFlushAtTheEndOfItsRead() {
        legs.toServer(Unpooled.wrappedBuffer(new byte[] {1}));
        legs.toServer(Unpooled.wrappedBuffer(new byte[] {2}));
        assertThat((Object) server.readOutbound()).as("not before the read is over").isNull();

        legs.clientReadComplete();

        assertThat(server.outboundMessages()).hasSize(2);
        assertThat(clientReads.count).as("and the client is read again").isEqualTo(1);
    }

    @Test
    void aClientIsNotReadWhileTheServerCannotTakeMoreAndIsReadOnceItCan() {
        writable(server, false);
        legs.clientReadComplete();
        assertThat(clientReads.count).isZero();

        writable(server, true);
        legs.serverWritabilityChanged();
        assertThat(clientReads.count).isEqualTo(1);
    }

    @Test
    void aClientWhoseInputHoldsIsNotReadWhateverTheServer() {
        clientRead = SessionLegs.ClientRead.WAIT;
        legs.clientReadComplete();
        legs.serverWritabilityChanged();
        assertThat(clientReads.count).isZero();

        clientRead = SessionLegs.ClientRead.NOW;
        writable(server, false);
        legs.readClientIfAllowed();
        assertThat(clientReads.count).as("a client the proxy answers itself").isEqualTo(1);
    }

    @Test
    void aServerIsReadOnlyWhenTheClientCanTakeMoreOfItsAnswers() {
        legs.toClient(Unpooled.wrappedBuffer(new byte[] {3}));
        writable(client, false);
        legs.serverReadComplete();
        assertThat(client.outboundMessages()).as("what came is flushed all the same").hasSize(1);
        assertThat(serverReads.count).isZero();

        writable(client, true);
        legs.clientWritabilityChanged();
        assertThat(serverReads.count).isEqualTo(1);
    }

    @Test
    void aServerWhoseAnswerTheProxyAwaitsIsReadWhateverTheClientsPace() {
        readAhead = true;
        writable(client, false);
        legs.serverReadComplete();
        assertThat(serverReads.count).isEqualTo(1);
    }

    @Test
    void anEndedSessionReadsNeitherLegAndClosesBoth() {
        ended = true;
        legs.clientReadComplete();
        legs.serverReadComplete();
        legs.clientWritabilityChanged();
        assertThat(clientReads.count).isZero();
        assertThat(serverReads.count).isZero();

        legs.close();
        client.runPendingTasks();
        server.runPendingTasks();
        assertThat(server.isOpen()).isFalse();
        assertThat(client.isOpen()).isFalse();
    }
}
