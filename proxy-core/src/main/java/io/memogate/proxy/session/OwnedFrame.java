package io.memogate.proxy.session;

import io.netty.buffer.ByteBuf;
import java.util.Objects;

/**
 * A client frame on its way to the server, owned by one step at a time. A statement's frame goes from the event
 * loop to another thread and back (its text read off the loop, its admission decided by a gateway), and any step
 * may fail: a step that hands the frame on, to the server or back to the allocator, {@linkplain #take takes} it
 * out first, and whoever handles a failure {@linkplain #release releases} what is still inside. So a frame is
 * forwarded or released exactly once, whichever step fails: after it was handed on there is nothing left to
 * release, and a second hand-off fails loudly instead of sending freed memory. Used on the session's event loop
 * only.
 */
public final class OwnedFrame {

    private ByteBuf frame;

    public OwnedFrame(ByteBuf frame) {
        this.frame = Objects.requireNonNull(frame, "frame");
    }

    /** The frame, still owned here: to decode, not to keep. */
    public ByteBuf peek() {
        if (frame == null) {
            throw new IllegalStateException("the frame was handed on already");
        }
        return frame;
    }

    /** Hands the frame on: the caller forwards or releases it, and this owns nothing any more. */
    public ByteBuf take() {
        ByteBuf taken = peek();
        frame = null;
        return taken;
    }

    /** Releases the frame unless it was handed on; true when it was still here. */
    public boolean release() {
        if (frame == null) {
            return false;
        }
        take().release();
        return true;
    }
}
