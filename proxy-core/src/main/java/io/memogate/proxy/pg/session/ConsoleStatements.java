package io.memogate.proxy.pg.session;

import io.memogate.estimator.lexer.StatementSplitter;
import io.memogate.estimator.postgres.PostgresLexicalRules;
import io.memogate.proxy.admin.ConsoleCommand;
import io.memogate.proxy.admin.ConsoleCommandParser;
import io.memogate.proxy.admin.ConsoleException;
import io.memogate.proxy.admin.ConsoleResult;
import io.memogate.proxy.admin.ResultTable;
import io.memogate.proxy.pg.message.backend.BackendMessage;
import io.memogate.proxy.pg.message.backend.BodilessMessage;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.EmptyQueryResponse;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.memogate.proxy.pg.message.frontend.BoundPortal;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The admin console's prepared statements and portals: the extended query protocol, answered by the proxy
 * as PostgreSQL would answer it, with PostgreSQL's errors. Console commands take no parameters, and the
 * console has no transactions: a Sync ends every portal, as the end of PostgreSQL's implicit transaction
 * does, while prepared statements live until closed. Running the commands is the caller's part
 * ({@link ConsolePhase}); this class keeps the names and turns results into messages.
 */
final class ConsoleStatements {

    /** A failed step of a batch: the error to send, after which the batch is skipped to its Sync. */
    static final class StepFailed extends Exception {
        private final ErrorResponse error;

        StepFailed(ErrorResponse error) {
            super(error.toString(), null, false, false);
            this.error = error;
        }

        ErrorResponse error() {
            return error;
        }
    }

    /** A parsed console command; no command for an empty query, which Execute answers with EmptyQueryResponse. */
    record Prepared(String sql, Optional<ConsoleCommand> command) {

        boolean returnsRows() {
            return command.map(ConsoleCommand::returnsRows).orElse(false);
        }
    }

    /** A bound statement, run at most once: by the Describe that needs its columns, else by its first Execute. */
    static final class Portal {
        private final Prepared statement;
        private final List<Short> resultFormats;
        private ConsoleResult result;
        private boolean noticesSent;
        private int rowsSent;

        private Portal(Prepared statement, List<Short> resultFormats) {
            this.statement = statement;
            this.resultFormats = resultFormats;
        }

        Prepared statement() {
            return statement;
        }

        /** Whether the command still has to run before the portal can answer. */
        boolean needsRun() {
            return result == null && statement.command().isPresent();
        }

        void ran(ConsoleResult result) {
            this.result = result;
        }

        /** Describe of the portal: its columns in the formats the Bind asked for, or NoData. */
        BackendMessage describe() throws StepFailed {
            if (result == null || result.table().isEmpty()) {
                return BodilessMessage.NO_DATA;
            }
            List<String> columns = result.table().get().columns();
            return RowDescription.ofText(columns, formats(columns.size()));
        }

        /**
         * Execute: the notices, then rows up to {@code maxRows} (0 or less: all that are left), then
         * PortalSuspended if rows are left, else CommandComplete; EmptyQueryResponse for an empty query.
         */
        List<BackendMessage> execute(int maxRows) throws StepFailed {
            if (statement.command().isEmpty()) {
                return List.of(EmptyQueryResponse.INSTANCE);
            }
            List<BackendMessage> answer = new ArrayList<>();
            if (!noticesSent) {
                result.notices().forEach(notice -> answer.add(PgErrors.consoleNotice(notice)));
                noticesSent = true;
            }
            List<List<String>> rows = result.table().map(ResultTable::rows).orElse(List.of());
            if (result.table().isPresent()) {
                formats(result.table().get().columns().size()); // a mismatch fails here as it would in Describe
            }
            int end = maxRows > 0 ? Math.min(rows.size(), rowsSent + maxRows) : rows.size();
            rows.subList(rowsSent, end).forEach(row -> answer.add(new DataRow(row)));
            rowsSent = end;
            answer.add(end < rows.size() ? BodilessMessage.PORTAL_SUSPENDED : new CommandComplete(result.tag()));
            return answer;
        }

        private List<Short> formats(int columns) throws StepFailed {
            return switch (resultFormats.size()) {
                case 0 -> Collections.nCopies(columns, (short) 0);
                case 1 -> Collections.nCopies(columns, resultFormats.getFirst());
                default -> {
                    if (resultFormats.size() != columns) {
                        throw new StepFailed(PgErrors.resultFormatCount(resultFormats.size(), columns));
                    }
                    yield resultFormats;
                }
            };
        }
    }

    private final Map<String, Prepared> statements = new HashMap<>();
    private final Map<String, Portal> portals = new HashMap<>();

    /**
     * Parse: the command is checked as it would be run, so a misspelt one fails here (42601), as SQL with a
     * syntax error fails PostgreSQL's Parse. "" names the unnamed statement, which a Parse replaces.
     */
    void parse(Parse parse) throws StepFailed {
        String name = parse.statementName();
        if (!name.isEmpty() && statements.containsKey(name)) {
            throw new StepFailed(PgErrors.duplicatePreparedStatement(name));
        }
        Optional<ConsoleCommand> command = Optional.empty();
        if (!isEmptyQuery(parse.sql())) {
            try {
                command = Optional.of(ConsoleCommandParser.parse(parse.sql()));
            } catch (ConsoleException e) {
                throw new StepFailed(PgErrors.consoleError(e));
            }
        }
        statements.put(name, new Prepared(parse.sql(), command));
    }

    /**
     * Nothing but whitespace, comments and semicolons ({@code psql -c '-- note'}): PostgreSQL parses no
     * statement there and answers EmptyQueryResponse, so the console does too. The estimator's splitter
     * reads comments as PostgreSQL's lexer does (nested block comments; an unterminated one is no comment).
     */
    static boolean isEmptyQuery(String sql) {
        return StatementSplitter.split(sql, PostgresLexicalRules.RULES).statements().isEmpty();
    }

    /** Bind: a portal of a parsed statement, without parameters, in text or binary (the same bytes for text). */
    void bind(BoundPortal bind) throws StepFailed {
        Prepared statement = statement(bind.statementName());
        if (bind.parameterCount() > 0) {
            throw new StepFailed(PgErrors.bindParameterCount(bind.parameterCount(), bind.statementName()));
        }
        for (short format : bind.resultFormats()) {
            if (format != 0 && format != 1) {
                throw new StepFailed(PgErrors.unsupportedFormatCode(format));
            }
        }
        String name = bind.portalName();
        if (!name.isEmpty() && portals.containsKey(name)) {
            throw new StepFailed(PgErrors.duplicatePortal(name));
        }
        portals.put(name, new Portal(statement, bind.resultFormats()));
    }

    Prepared statement(String name) throws StepFailed {
        Prepared statement = statements.get(name);
        if (statement == null) {
            throw new StepFailed(PgErrors.unknownPreparedStatement(name));
        }
        return statement;
    }

    Portal portal(String name) throws StepFailed {
        Portal portal = portals.get(name);
        if (portal == null) {
            throw new StepFailed(PgErrors.unknownPortal(name));
        }
        return portal;
    }

    /** Close: closing what does not exist is no error, as in PostgreSQL. */
    void close(StatementOrPortal target, String name) {
        (target == StatementOrPortal.STATEMENT ? statements : portals).remove(name);
    }

    /** A Sync: the batch's implicit transaction is over, and with it every portal. */
    void synced() {
        portals.clear();
    }

    /** A simple Query replaces the unnamed statement and, as its own transaction, ends every portal. */
    void simpleQuery() {
        statements.remove("");
        portals.clear();
    }
}
