package io.memogate.bench.storm.load;

import java.util.Arrays;
import java.util.stream.Collectors;

/** Where the storm's clients connect. */
public enum Mode {
    DIRECT("direct", "straight to PostgreSQL"),
    GATEWAYS_OFF("gateways-off", "through Memogate, every statement admitted at once"),
    GATEWAYS_ON("gateways-on", "through Memogate with its gateways and byte budget"),
    /** gateways-on with admission.degrade for every session: a report that never fits, or waits too long, degrades. */
    GATEWAYS_DEGRADE("gateways-degrade", "through Memogate with its gateways, degrading what never fits or waits"),
    /** The instances share one set of gateways through Redis; with one instance, gateways-on through Redis. */
    FLEET("fleet", "through Memogate instances sharing one set of gateways through Redis");

    private final String label;
    private final String description;

    Mode(String label, String description) {
        this.label = label;
        this.description = description;
    }

    public String label() {
        return label;
    }

    public String description() {
        return description;
    }

    /** By label ("gateways-on"), as the command line and the report spell them. */
    public static Mode parse(String label) {
        for (Mode mode : values()) {
            if (mode.label.equalsIgnoreCase(label.strip())) {
                return mode;
            }
        }
        throw new IllegalArgumentException("unknown mode '" + label + "'; expected one of "
                + Arrays.stream(values()).map(Mode::label).collect(Collectors.joining(", ")));
    }
}
