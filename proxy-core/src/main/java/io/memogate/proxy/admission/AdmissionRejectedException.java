package io.memogate.proxy.admission;

/**
 * A statement the gateways would not admit (its queue was full, or it waited too long). Protocol-neutral:
 * each protocol turns it into its own error (PostgreSQL: SQLSTATE 53000, insufficient_resources), with
 * the message, detail and hint given here.
 */
public final class AdmissionRejectedException extends RuntimeException {

    private final String detail;
    private final String hint;

    public AdmissionRejectedException(String message, String detail, String hint) {
        super(message, null, false, false);
        this.detail = detail;
        this.hint = hint;
    }

    /** Why, in numbers: the tier, the wait, the estimate, the limit that was reached. */
    public String detail() {
        return detail;
    }

    /** What the user can do about it. */
    public String hint() {
        return hint;
    }
}
