package io.memogate.broker.probe.sqlserver;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A poll's result sets from the files under {@code src/test/resources/handwritten/}: each file is one result set of
 * the probe's queries (see the header of each for where its shape comes from). A poll names its directory and
 * the ones it takes unchanged files from.
 */
final class HandwrittenPoll implements DmvSource {

    private final List<String> directories;
    private final boolean gateways;

    private HandwrittenPoll(List<String> directories, boolean gateways) {
        this.directories = directories;
        this.gateways = gateways;
    }

    /** The files of {@code directory}, and of {@code unchangedFrom} for those it does not have. */
    static HandwrittenPoll of(String directory, String... unchangedFrom) {
        List<String> all = new ArrayList<>();
        all.add(directory);
        all.addAll(List.of(unchangedFrom));
        return new HandwrittenPoll(all, true);
    }

    /** The same poll on a release without sys.dm_exec_query_optimizer_memory_gateways. */
    HandwrittenPoll withoutGateways() {
        return new HandwrittenPoll(directories, false);
    }

    @Override
    public MonitoringRights rights() {
        return MonitoringRights.of(rows("rights", "sys.fn_my_permissions"));
    }

    @Override
    public DmvResults results() {
        return new DmvResults(rows("server", "SERVERPROPERTY"), rows("clerks", "sys.dm_os_memory_clerks"),
                rows("waits", "sys.dm_os_wait_stats"), rows("counters", "sys.dm_os_performance_counters"),
                rows("sys_memory", "sys.dm_os_sys_memory"), rows("sys_info", "sys.dm_os_sys_info"),
                gateways ? Optional.of(rows("gateways", "sys.dm_exec_query_optimizer_memory_gateways"))
                        : Optional.empty(),
                rows("grants", "sys.dm_exec_query_memory_grants"), rows("sessions", "sys.dm_exec_sessions"));
    }

    ResultRows rows(String file, String view) {
        for (String directory : directories) {
            String resource = "/handwritten/" + directory + "/" + file + ".tsv";
            try (InputStream in = HandwrittenPoll.class.getResourceAsStream(resource)) {
                if (in != null) {
                    return parse(view, new String(in.readAllBytes(), StandardCharsets.UTF_8));
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        throw new IllegalArgumentException("no " + file + ".tsv in handwritten/" + directories);
    }

    /** Tab-separated rows under a line of column names; '#' lines are comments; NULL is null. */
    static ResultRows parse(String view, String text) {
        List<String> columns = null;
        List<Map<String, String>> rows = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            String[] values = line.split("\t", -1);
            if (columns == null) {
                columns = List.of(values);
                continue;
            }
            if (values.length != columns.size()) {
                throw new IllegalArgumentException(view + ": row '" + line + "' has " + values.length
                        + " values for " + columns.size() + " columns");
            }
            Map<String, String> row = new HashMap<>();
            for (int i = 0; i < values.length; i++) {
                row.put(columns.get(i), values[i].equals("NULL") ? null : values[i]);
            }
            rows.add(row);
        }
        return new ResultRows(view, rows);
    }
}
