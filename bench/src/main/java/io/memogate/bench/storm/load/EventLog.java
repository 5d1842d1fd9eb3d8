package io.memogate.bench.storm.load;

import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;

/** Everything the clients did, appended concurrently, read once they have stopped. */
public final class EventLog {

    private final ConcurrentLinkedQueue<Attempt> attempts = new ConcurrentLinkedQueue<>();
    private final ConcurrentLinkedQueue<Submission> submissions = new ConcurrentLinkedQueue<>();

    void add(Attempt attempt) {
        attempts.add(attempt);
    }

    void add(Submission submission) {
        submissions.add(submission);
    }

    public List<Attempt> attempts() {
        return List.copyOf(attempts);
    }

    public List<Submission> submissions() {
        return List.copyOf(submissions);
    }
}
