package io.memogate.broker.redis;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.function.Consumer;

/**
 * The calls an instance sends without waiting for their answers. Those whose loss would leave something
 * held in Redis (a release, a withdrawal, a closed connection, the settings) are kept until Redis confirms
 * them and sent again after its next answer; the others (a target, a measurement) a later call replaces.
 */
final class FleetCalls {

    private final FleetClient redis;
    private final Consumer<FleetReply> answered;
    private final Consumer<Throwable> failed;
    private final Queue<Call> unconfirmed = new ConcurrentLinkedQueue<>();

    /**
     * @param answered told every answer, on the replies thread
     * @param failed told every call Redis did not answer
     */
    FleetCalls(FleetClient redis, Consumer<FleetReply> answered, Consumer<Throwable> failed) {
        this.redis = redis;
        this.answered = answered;
        this.failed = failed;
    }

    /** A call's outcome, to the consumers this was built with. */
    void answer(FleetReply reply, Throwable failure) {
        if (failure != null) {
            failed.accept(failure);
        } else {
            answered.accept(reply);
        }
    }

    /** A call a later one replaces: not sent again when lost. */
    void send(String function, String... args) {
        redis.call(this::answer, function, args);
    }

    /** A call whose loss would leave something held in Redis: sent again until Redis confirms it. */
    void sendConfirmed(String function, String... args) {
        sendConfirmed(new Call(function, args));
    }

    /** Kept to send again: its first try already failed. */
    void later(String function, String... args) {
        unconfirmed.add(new Call(function, args));
    }

    /** After an answer: the calls Redis did not confirm, once more. */
    void resend() {
        for (int n = unconfirmed.size(); n > 0; n--) {
            Call call = unconfirmed.poll();
            if (call != null) {
                sendConfirmed(call);
            }
        }
    }

    boolean anyUnconfirmed() {
        return !unconfirmed.isEmpty();
    }

    /** The fleet reaped this instance's state: nothing is left there to release. */
    void forget() {
        unconfirmed.clear();
    }

    private void sendConfirmed(Call call) {
        redis.call((reply, failure) -> {
            if (failure != null) {
                unconfirmed.add(call);
                failed.accept(failure);
            } else {
                answered.accept(reply);
            }
        }, call.function(), call.args());
    }

    private record Call(String function, String... args) {
    }
}
