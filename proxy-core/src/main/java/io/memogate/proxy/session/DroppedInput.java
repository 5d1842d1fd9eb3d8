package io.memogate.proxy.session;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.util.ReferenceCountUtil;

/**
 * Put in place of a client's framer once its stream is broken and only a FATAL is still to go to it:
 * what it sends from then on is read and dropped, not framed (the bytes after a bad message are no
 * messages), while every other event (its closing, read completion) still reaches the session.
 * {@link LingeringClose} drops the input of a closing client with it too.
 */
public class DroppedInput extends ChannelInboundHandlerAdapter {

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        ReferenceCountUtil.release(msg);
    }
}
