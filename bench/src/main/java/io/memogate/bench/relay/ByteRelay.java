package io.memogate.bench.relay;

import io.memogate.proxy.server.LeakDetection;
import io.memogate.proxy.server.Transport;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.socket.SocketChannel;
import java.net.InetSocketAddress;

/**
 * The floor of a relay on the proxy's own stack: a Netty TCP relay that parses nothing, in a JVM of its own,
 * built as the proxy's session legs are (the transport {@link Transport#best()} picks, an event loop per
 * processor, both legs of a connection on one loop, AUTO_READ off with reads paced by the other leg's
 * writability, void promises, one flush per read). What the shipped proxy spends above it is its own doing;
 * what this spends above PgBouncer is the JVM's and Netty's.
 *
 * <p>{@code java -cp memogate-bench.jar io.memogate.bench.relay.ByteRelay LISTEN_PORT SERVER_HOST SERVER_PORT};
 * it listens on 127.0.0.1 and runs until it is signalled.
 */
public final class ByteRelay {

    private ByteRelay() {
    }

    public static void main(String[] args) throws InterruptedException {
        if (args.length != 3) {
            System.err.println("usage: ByteRelay LISTEN_PORT SERVER_HOST SERVER_PORT");
            System.exit(2);
        }
        LeakDetection.offUnlessAsked();
        int listenPort = Integer.parseInt(args[0]);
        InetSocketAddress server = InetSocketAddress.createUnresolved(args[1], Integer.parseInt(args[2]));
        Transport transport = Transport.best();
        EventLoopGroup loops = transport.newEventLoopGroup(Runtime.getRuntime().availableProcessors(), "byte-relay");
        try {
            Channel listener = new ServerBootstrap()
                    .group(loops)
                    .channel(transport.serverChannelClass())
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childHandler(new ChannelInitializer<SocketChannel>() {
                        @Override
                        protected void initChannel(SocketChannel client) {
                            client.pipeline().addLast(new RelayLeg.ClientSide(transport, server));
                        }
                    })
                    .bind("127.0.0.1", listenPort).sync().channel();
            System.out.println("relaying 127.0.0.1:" + listenPort + " to " + args[1] + ":" + args[2] + " on "
                    + transport.name());
            listener.closeFuture().sync();
        } finally {
            loops.shutdownGracefully();
        }
    }
}
