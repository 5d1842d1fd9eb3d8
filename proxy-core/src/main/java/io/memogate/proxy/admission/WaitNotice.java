package io.memogate.proxy.admission;

import java.util.Objects;

/**
 * What a client kept waiting for admission is told once, after {@code admission.waitNotice}: where its
 * statement waits, and why. The why matters to whoever reads it: a busy server clears by itself, a
 * paused proxy only when an admin says RESUME.
 *
 * @param where the queue and place, in words ("statement queued for the LARGE gateway: position 2, ...")
 * @param hint why it waits and what ends the wait (see {@link AdmissionHints})
 */
public record WaitNotice(String where, String hint) {

    public WaitNotice {
        Objects.requireNonNull(where, "where");
        Objects.requireNonNull(hint, "hint");
    }
}
