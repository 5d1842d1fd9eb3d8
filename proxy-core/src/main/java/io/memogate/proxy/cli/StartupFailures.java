package io.memogate.proxy.cli;

import io.memogate.proxy.config.ConfigException;
import io.memogate.proxy.postgres.embedded.EmbeddedPostgresException;
import io.memogate.proxy.server.ListenException;
import java.util.function.UnaryOperator;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * What a command prints when it cannot start because of something the operator can fix: "memogate: "
 * and one line naming what failed and what to do, and an exit code per kind of mistake (docs/operations.md,
 * "When it does not start"). A configuration error lists each of its problems on a line of its own. The stack trace
 * goes to the debug log ({@code -Dmemogate.log.level=DEBUG}); an exception not recognized here is a
 * bug and keeps its stack trace.
 */
final class StartupFailures implements CommandLine.IExecutionExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(StartupFailures.class);

    /**
     * A command whose settings are not (only) the configuration file's fields: how the operator changes
     * one, in the command's own words.
     */
    interface Settings {
        /**
         * @param field a configuration path, {@code listeners[0].port}, or {@link #EMBEDDED_PORT}
         * @return e.g. "change listeners[0].port in memogate.yaml", "choose another --port"
         */
        String howToChange(String field);
    }

    /** The embedded PostgreSQL's port, which only `demo` has. */
    static final String EMBEDDED_PORT = "embedded PostgreSQL port";

    @Override
    public int handleExecutionException(Exception error, CommandLine command, ParseResult parsed) throws Exception {
        UnaryOperator<String> howToChange = command.getCommand() instanceof Settings settings
                ? settings::howToChange : field -> "change " + field;
        String line;
        int exit;
        switch (error) {
            case ConfigException e -> {
                line = e.getMessage();
                exit = MemogateCommand.EXIT_BAD_CONFIGURATION;
            }
            case OptionFileException e -> {
                line = e.getMessage();
                exit = MemogateCommand.EXIT_BAD_CONFIGURATION;
            }
            case ListenException e -> {
                line = e.explain(howToChange);
                exit = MemogateCommand.EXIT_CANNOT_LISTEN;
            }
            case EmbeddedPostgresException e -> {
                line = embeddedPostgres(e, howToChange);
                exit = MemogateCommand.EXIT_EMBEDDED_POSTGRES;
            }
            default -> throw error;
        }
        log.debug("memogate {} did not start", command.getCommandName(), error);
        command.getErr().println("memogate: " + line);
        command.getErr().flush();
        return exit;
    }

    /**
     * A taken port in one line: the server's log only says so in more words. Any other failure keeps
     * the end of the server's log, which is where its reason is.
     */
    private static String embeddedPostgres(EmbeddedPostgresException e, UnaryOperator<String> howToChange) {
        if (e.portInUse().isPresent()) {
            return "cannot start the embedded PostgreSQL: port " + e.portInUse().getAsInt() + " on 127.0.0.1 is "
                    + "already in use (is a PostgreSQL server running there? " + howToChange.apply(EMBEDDED_PORT) + ")";
        }
        String message = String.valueOf(e.getMessage());
        return message.startsWith("cannot start") ? message : "cannot start the embedded PostgreSQL: " + message;
    }
}
