package io.memogate.bench.storm.load;

/** How a client holds its connection. */
public enum ConnectionStyle {
    /** A new connection for every attempt, closed after it: ad-hoc tools, and a fresh backend each time. */
    NEW("new connection per submission"),
    /**
     * One connection kept until it breaks: pooled applications. The backend keeps the memory its largest
     * plan needed (docs/DESIGN.md, "sticky"), so retained memory builds up across submissions.
     */
    PERSISTENT("persistent connection");

    private final String description;

    ConnectionStyle(String description) {
        this.description = description;
    }

    public String label() {
        return name().toLowerCase(java.util.Locale.ROOT);
    }

    public String description() {
        return description;
    }
}
