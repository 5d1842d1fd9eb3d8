package io.memogate.broker.redis;

import java.util.ArrayList;
import java.util.List;

/**
 * What every gateway function answers (gateways.lua, "Every reply"): whether the caller's lease had run out,
 * so that the fleet reaped what it held; the operation's own result; and the decisions about the caller's
 * tickets made since its last call, by it or by any other instance.
 */
record FleetReply(boolean reaped, Object result, List<Decision> decisions) {

    static FleetReply parse(List<Object> raw) {
        if (raw == null || raw.size() != 3 || !(raw.get(2) instanceof List<?> entries)) {
            throw new IllegalStateException("the fleet's Redis answered " + raw + ", not {reaped, result, decisions}:"
                    + " is another version of the gateway functions loaded?");
        }
        return new FleetReply(Long.valueOf(1).equals(raw.get(0)), raw.get(1),
                entries.stream().map(entry -> Decision.parse(String.valueOf(entry))).toList());
    }

    /** This answer followed by {@code next}, as one: reaped if either says so, both's decisions, next's result. */
    FleetReply then(FleetReply next) {
        List<Decision> all = new ArrayList<>(decisions);
        all.addAll(next.decisions);
        return new FleetReply(reaped || next.reaped, next.result, List.copyOf(all));
    }

    /** The result as text: '' or "queue position" from mg_acquire, a count or 0/1 from the others. */
    String text() {
        return String.valueOf(result);
    }

    /** The result as a list, from mg_poll and mg_view. */
    List<String> lines() {
        if (!(result instanceof List<?> list)) {
            throw new IllegalStateException("the fleet's Redis answered " + result + " where a list was expected");
        }
        return list.stream().map(String::valueOf).toList();
    }
}
