package io.memogate.broker.probe.mysql;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Which of the two servers speaking the MySQL protocol a probe reads: they share the status and system
 * variables the probe needs, but report memory in different places (MariaDB: the Memory_used status and
 * PROCESSLIST.MEMORY_USED; MySQL 8: performance_schema alone).
 */
enum Flavor {
    MARIADB("MariaDB"), MYSQL("MySQL");

    /** major.minor.patch at the start of @@version, after MariaDB's "5.5.5-" replication prefix where present. */
    private static final Pattern VERSION = Pattern.compile("^(?:5\\.5\\.5-)?(\\d+)\\.(\\d+)\\.(\\d+)");

    private final String displayName;

    Flavor(String displayName) {
        this.displayName = displayName;
    }

    String displayName() {
        return displayName;
    }

    /** MariaDB names itself in @@version ("10.11.19-MariaDB-0+deb12u1"); MySQL does not ("8.4.3"). */
    static Flavor of(String version) {
        return version.contains("MariaDB") ? MARIADB : MYSQL;
    }

    /**
     * @@version as a number that orders releases, as MYSQL_VERSION_ID does: major x 10000 + minor x 100 + patch
     * (10.11.19 -> 101119, 8.0.31 -> 80031).
     *
     * @throws IllegalArgumentException when @@version does not start with major.minor.patch
     */
    static int versionNumber(String version) {
        Matcher matcher = VERSION.matcher(version);
        if (!matcher.find()) {
            throw new IllegalArgumentException("@@version '" + version + "' does not start with major.minor.patch");
        }
        return Integer.parseInt(matcher.group(1)) * 10_000 + Integer.parseInt(matcher.group(2)) * 100
                + Integer.parseInt(matcher.group(3));
    }
}
