package io.memogate.proxy.config;

import java.time.Duration;
import java.util.Objects;

/**
 * TCP keepalive on both legs of every session, PostgreSQL's tcp_keepalives_* and PgBouncer's tcp_keep*
 * settings: keepalive is always on, and these tune when a peer that went away without a word (a host
 * powered off, a NAT or firewall that forgot the flow) is noticed. Zero keeps the operating system's
 * value (Linux: 2 h idle, 75 s between probes, 9 probes).
 *
 * @param idle     how long a connection is idle before the first probe; zero or whole seconds
 * @param interval between unanswered probes; zero or whole seconds
 * @param count    unanswered probes before the connection is dropped; zero for the system's
 */
public record TcpKeepalive(Duration idle, Duration interval, int count) {

    /** Linux's limits: MAX_TCP_KEEPIDLE and MAX_TCP_KEEPINTVL (seconds), MAX_TCP_KEEPCNT. */
    public static final Duration MAX_IDLE = Duration.ofSeconds(32_767);
    public static final Duration MAX_INTERVAL = Duration.ofSeconds(32_767);
    public static final int MAX_COUNT = 127;

    public static final TcpKeepalive SYSTEM_DEFAULTS = new TcpKeepalive(Duration.ZERO, Duration.ZERO, 0);

    public TcpKeepalive {
        Objects.requireNonNull(idle, "idle");
        Objects.requireNonNull(interval, "interval");
    }
}
