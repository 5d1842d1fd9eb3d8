package io.memogate.proxy.mysql.session;

import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ResultTable;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What MySQL clients send on their own around a console session, answered by the MySQL console itself so that
 * they connect: session settings ({@code SET autocommit=1}, {@code SET NAMES utf8mb4}, {@code SET
 * session_track_...}: an OK, nothing to set, the console has no session variables) and system variables read
 * at connect ({@code SELECT @@version_comment LIMIT 1}, which the mariadb client prints; {@code SELECT
 * @@max_allowed_packet}: a row of their values, NULL for one the console does not know). A console setting
 * ({@code SET tiers.small.limit = 4}) names a dotted key, so it is not one of these and goes to the console.
 */
final class ClientPreamble {

    /** The comments drivers put before their own statements (Connector/J names itself in one). */
    private static final Pattern LEADING_COMMENTS = Pattern.compile("(?s)^\\s*(?:/\\*.*?\\*/\\s*)*");
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+(@@)?([A-Za-z_][A-Za-z0-9_.]*).*");
    private static final String ITEM = "@@[A-Za-z0-9_.]+(?:\\s+AS\\s+[A-Za-z0-9_]+)?";
    private static final Pattern SELECT_VARIABLES = Pattern.compile(
            "(?is)SELECT\\s+(" + ITEM + "(?:\\s*,\\s*" + ITEM + ")*)(?:\\s+LIMIT\\s+\\d+)?\\s*;?\\s*");
    private static final Pattern LIST = Pattern.compile("\\s*,\\s*");
    private static final Pattern ALIAS = Pattern.compile("(?i)\\s+AS\\s+");

    /** The system variables clients read at connect, as the console answers them: UTF-8, defaults elsewhere. */
    private static final Map<String, String> VARIABLES = Map.ofEntries(
            Map.entry("version_comment", "Memogate admin console"),
            Map.entry("max_allowed_packet", "16777216"),
            Map.entry("auto_increment_increment", "1"),
            Map.entry("autocommit", "1"),
            Map.entry("tx_isolation", "REPEATABLE-READ"),
            Map.entry("transaction_isolation", "REPEATABLE-READ"),
            Map.entry("transaction_read_only", "0"),
            Map.entry("tx_read_only", "0"),
            Map.entry("character_set_client", "utf8mb4"),
            Map.entry("character_set_connection", "utf8mb4"),
            Map.entry("character_set_results", "utf8mb4"),
            Map.entry("character_set_server", "utf8mb4"),
            Map.entry("collation_server", "utf8mb4_general_ci"),
            Map.entry("collation_connection", "utf8mb4_general_ci"),
            Map.entry("init_connect", ""),
            Map.entry("interactive_timeout", "28800"),
            Map.entry("wait_timeout", "28800"),
            Map.entry("net_write_timeout", "60"),
            Map.entry("lower_case_table_names", "0"),
            Map.entry("performance_schema", "0"),
            Map.entry("query_cache_size", "0"),
            Map.entry("query_cache_type", "OFF"),
            Map.entry("sql_mode", ""),
            Map.entry("system_time_zone", "UTC"),
            Map.entry("time_zone", "SYSTEM"));

    /** The local answer to {@code text}, or empty when it is for the console. */
    Optional<ConsoleResult> answer(String command) {
        String text = LEADING_COMMENTS.matcher(command).replaceFirst("");
        Matcher set = SET.matcher(text);
        if (set.matches() && (set.group(1) != null || !set.group(2).contains("."))) {
            return Optional.of(ConsoleResult.done("SET"));
        }
        Matcher select = SELECT_VARIABLES.matcher(text);
        if (select.matches()) {
            List<String> columns = new ArrayList<>();
            List<String> values = new ArrayList<>();
            for (String item : LIST.split(select.group(1).strip())) {
                String[] aliased = ALIAS.split(item);
                String variable = aliased[0];
                columns.add(aliased.length > 1 ? aliased[1] : variable);
                String name = variable.substring(2).toLowerCase(Locale.ROOT);
                name = name.startsWith("session.") ? name.substring(8) : name.startsWith("global.") ? name.substring(7)
                        : name;
                values.add(VARIABLES.get(name));
            }
            return Optional.of(ConsoleResult.rows("SELECT", new ResultTable(columns, List.of(values))));
        }
        return Optional.empty();
    }
}
