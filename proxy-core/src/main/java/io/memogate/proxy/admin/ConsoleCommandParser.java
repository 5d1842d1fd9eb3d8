package io.memogate.proxy.admin;

import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Reads one {@link ConsoleCommand} from the text of a simple-protocol Query. */
public final class ConsoleCommandParser {

    private static final Pattern EXPLAIN = Pattern.compile("(?is)EXPLAIN\\s+ADMISSION(?:\\s+(.*))?");
    /**
     * EXPLAIN ADMISSION's optional {@code DATABASE name} (no SQL statement starts with DATABASE): a name as
     * PostgreSQL writes one, plain or double-quoted with "" for a quote.
     */
    private static final Pattern DATABASE = Pattern.compile("(?is)DATABASE\\s+(?:\"((?:[^\"]|\"\")+)\"|([^\\s\"]+))(?:\\s+(.*))?");
    /** The word DATABASE where no name as {@link #DATABASE} reads one follows: the name was left out. */
    private static final Pattern DATABASE_WITHOUT_NAME = Pattern.compile("(?is)DATABASE(?:\\s.*)?");
    /** A key of letters, digits, '.' and '_'; then = or TO; then a quoted value ('' escapes ') or the rest. */
    private static final Pattern SET = Pattern.compile("(?is)SET\\s+([A-Za-z0-9_.]+)\\s*(?:=|\\s+TO\\s)\\s*(?:'((?:[^']|'')*)'|(\\S.*?))\\s*");
    private static final Pattern WORDS = Pattern.compile("\\s+");
    /** CANCEL or KILL, a server process id, and perhaps ON and a backend's name (as backends[].name spells it). */
    private static final Pattern SESSION_COMMAND =
            Pattern.compile("(?is)(CANCEL|KILL)\\s+(\\S+)(?:\\s+ON\\s+([A-Za-z0-9_.-]+))?");

    /** REFRESH CATALOGS, then perhaps a database name as {@link #DATABASE} reads one. */
    private static final Pattern REFRESH =
            Pattern.compile("(?is)REFRESH\\s+CATALOGS(?:\\s+(?:\"((?:[^\"]|\"\")+)\"|([^\\s\"]+)))?");
    /** The client settings drivers set at connect; any other SET must name a console setting. */
    private static final Set<String> CLIENT_SETTINGS = Set.of("application_name",
            "extra_float_digits", "client_encoding", "datestyle", "timezone", "intervalstyle", "search_path");

    private static ConsoleCommand explainAdmission(String rest, String text) {
        Optional<String> database = Optional.empty();
        String statements = rest;
        Matcher named = rest == null ? null : DATABASE.matcher(rest);
        if (named != null && named.matches()) {
            database = Optional.of(named.group(1) != null ? named.group(1).replace("\"\"", "\"") : named.group(2));
            statements = named.group(3);
        } else if (rest != null && DATABASE_WITHOUT_NAME.matcher(rest).matches()) {
            // Else "EXPLAIN ADMISSION database" estimated the word as a statement, a utility one.
            throw syntax("EXPLAIN ADMISSION DATABASE needs a database name: EXPLAIN ADMISSION DATABASE name "
                    + "select ... from ...", text);
        }
        if (statements == null || statements.isBlank()) {
            throw syntax("EXPLAIN ADMISSION needs a statement: EXPLAIN ADMISSION [DATABASE name] select ... from ...",
                    text);
        }
        return new ConsoleCommand.ExplainAdmission(database, statements);
    }

    /**
     * Reads one command.
     *
     * @throws ConsoleException of kind SYNTAX, listing the valid commands, for anything else
     */
    public static ConsoleCommand parse(String text) {
        String command = stripTrailingSemicolons(text);
        Matcher explain = EXPLAIN.matcher(command);
        if (explain.matches()) {
            return explainAdmission(explain.group(1), text);
        }
        if (command.indexOf(';') >= 0) {
            throw syntax("the admin console runs one command per query", text);
        }
        Matcher set = SET.matcher(command);
        if (set.matches()) {
            String value = set.group(2) != null ? set.group(2).replace("''", "'") : set.group(3);
            if (CLIENT_SETTINGS.contains(set.group(1).toLowerCase(Locale.ROOT))) {
                return new ConsoleCommand.ClientSet(set.group(1));
            }
            return new ConsoleCommand.Set(set.group(1), value);
        }
        Matcher refresh = REFRESH.matcher(command);
        if (refresh.matches()) {
            return new ConsoleCommand.RefreshCatalogs(refresh.group(1) != null
                    ? Optional.of(refresh.group(1).replace("\"\"", "\"")) : Optional.ofNullable(refresh.group(2)));
        }
        String[] words = WORDS.split(command.strip().toUpperCase(Locale.ROOT));
        if (words.length == 2 && words[0].equals("SHOW")) {
            if (words[1].equals("DATABASES")) { // PgBouncer's name for its routing table
                return new ConsoleCommand.ShowCommand(ConsoleCommand.Show.BACKENDS);
            }
            for (ConsoleCommand.Show show : ConsoleCommand.Show.values()) {
                if (show.name().equals(words[1])) {
                    return new ConsoleCommand.ShowCommand(show);
                }
            }
        }
        Matcher session = SESSION_COMMAND.matcher(command);
        if (session.matches()) {
            int pid = serverPid(session.group(2), text);
            Optional<String> backend = Optional.ofNullable(session.group(3));
            return session.group(1).equalsIgnoreCase("CANCEL") ? new ConsoleCommand.CancelSession(pid, backend)
                    : new ConsoleCommand.KillSession(pid, backend);
        }
        if (words.length == 1) {
            switch (words[0]) {
                case "RELOAD" -> {
                    return new ConsoleCommand.Reload();
                }
                case "PAUSE" -> {
                    return new ConsoleCommand.Pause();
                }
                case "RESUME" -> {
                    return new ConsoleCommand.Resume();
                }
                default -> { }
            }
        }
        throw syntax("unknown admin console command: " + quoted(command), text);
    }

    /** A server process id as SHOW CLIENTS prints it: a positive whole number. */
    private static int serverPid(String word, String text) {
        try {
            int pid = Integer.parseInt(word);
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException e) {
            // answered below
        }
        throw syntax("CANCEL and KILL take a session's server_pid (SHOW CLIENTS), not " + quoted(word), text);
    }

    private static String stripTrailingSemicolons(String text) {
        int end = text.length();
        while (end > 0 && (Character.isWhitespace(text.charAt(end - 1)) || text.charAt(end - 1) == ';')) {
            end--;
        }
        return text.substring(0, end).strip();
    }

    private static ConsoleException syntax(String message, String text) {
        return new ConsoleException(ConsoleException.Kind.SYNTAX, message,
                "Valid commands: " + String.join(", ", ConsoleCommand.SYNOPSIS) + ".",
                "Commands are case-insensitive and end with an optional semicolon; SHOW HELP lists them. "
                        + "SQL for the database goes to the database by name, not to \"memogate\".");
    }

    private static String quoted(String command) {
        String shown = command.length() > 60 ? command.substring(0, 60) + "..." : command;
        return "\"" + shown + "\"";
    }

    private ConsoleCommandParser() {
    }
}
