package io.memogate.proxy.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The one queue of a session's client frames: whatever holds the input, what the client sent meanwhile is
 * handed on in the order it came, once, and nothing is lost or handed on twice.
 */
class HeldInputTest {

    /** A wing that records what it was handed, and holds while told to. */
    private static final class Recorder implements HeldInput.Reader {
        final List<String> handled = new ArrayList<>();
        boolean holds;
        boolean ended;
        boolean inputEnded;
        /** Holds again at this frame, as a statement that must wait for admission does. */
        String holdAt;

        @Override
        public boolean inputEnded() {
            return inputEnded;
        }

        @Override
        public boolean holds() {
            return holds;
        }

        @Override
        public boolean ended() {
            return ended;
        }

        @Override
        public void dispatch(ByteBuf frame) {
            String text = frame.toString(StandardCharsets.US_ASCII);
            frame.release();
            handled.add(text);
            holds |= text.equals(holdAt);
        }
    }

    private static ByteBuf frame(String text) {
        return Unpooled.copiedBuffer(text, StandardCharsets.US_ASCII);
    }

    @Test
    void framesSentWhileTheInputHoldsAreHandedOnInOrderOnceItIsReplayed() {
        Recorder wing = new Recorder();
        HeldInput input = new HeldInput(wing);
        input.frame(frame("a"));
        wing.holds = true;
        input.frame(frame("b"));
        input.frame(frame("c"));
        assertThat(wing.handled).containsExactly("a");

        wing.holds = false;
        input.replay();

        assertThat(wing.handled).containsExactly("a", "b", "c");
        assertThat(input.nothingHeld()).isTrue();
    }

    @Test
    void aFrameThatComesWhileOthersWaitGoesBehindThemEvenWhenNothingHoldsAnyMore() {
        Recorder wing = new Recorder();
        HeldInput input = new HeldInput(wing);
        wing.holds = true;
        input.frame(frame("a"));
        wing.holds = false;
        input.frame(frame("b")); // read before the replay was asked for

        assertThat(wing.handled).isEmpty();
        input.replay();
        assertThat(wing.handled).containsExactly("a", "b");
    }

    @Test
    void theReplayStopsWhereAFrameHoldsAgainAndGoesOnAtTheNextReplay() {
        Recorder wing = new Recorder();
        wing.holdAt = "b";
        HeldInput input = new HeldInput(wing);
        wing.holds = true;
        input.frame(frame("a"));
        input.frame(frame("b"));
        input.frame(frame("c"));

        wing.holds = false;
        input.replay();
        assertThat(wing.handled).containsExactly("a", "b");

        wing.holds = false;
        input.replay();
        assertThat(wing.handled).containsExactly("a", "b", "c");
    }

    @Test
    void aFrameHeldFirstIsReplayedBeforeThoseThatCameAfterIt() {
        Recorder wing = new Recorder();
        HeldInput input = new HeldInput(wing);
        wing.holds = true;
        input.frame(frame("b"));
        input.holdFirst(frame("a"));

        wing.holds = false;
        input.replay();
        assertThat(wing.handled).containsExactly("a", "b");
    }

    @Test
    void whatWaitsWhenTheSessionEndsIsReleasedAndNeverHandedOn() {
        Recorder wing = new Recorder();
        HeldInput input = new HeldInput(wing);
        wing.holds = true;
        ByteBuf waiting = frame("a");
        input.frame(waiting);

        wing.ended = true;
        wing.holds = false;
        input.replay();
        input.closed();

        assertThat(wing.handled).isEmpty();
        assertThat(waiting.refCnt()).isZero();
    }

    @Test
    void whatTheClientSendsAfterItBrokeItsProtocolIsDroppedButWhatCameBeforeStillGoesOn() {
        Recorder wing = new Recorder();
        HeldInput input = new HeldInput(wing);
        wing.holds = true;
        input.frame(frame("before"));
        wing.inputEnded = true;
        ByteBuf after = frame("after");
        input.frame(after);

        wing.holds = false;
        input.replay();
        assertThat(wing.handled).containsExactly("before");
        assertThat(after.refCnt()).isZero();
    }
}
