package io.memogate.proxy.pg.session;

import io.memogate.proxy.admission.Degradation;
import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.Close;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.netty.buffer.ByteBuf;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * What the proxy sends the server around a degraded statement ({@link DegradedRuns}), in three forms:
 * <ul>
 *   <li>outside a transaction block, simple protocol: {@code begin; set local ...} before and {@code commit}
 *       after, so that the block's end gives the session its own values back;
 *   <li>inside the client's block, simple protocol: a query that saves each setting's value in force into a
 *       placeholder setting of the proxy's ({@code memogate.saved_<name>}) and sets the tighter one, both with
 *       {@code set_config(..., true)} (SET LOCAL), and after the statement one that sets each back from its
 *       placeholder: the value the block had, whatever set it (a SET LOCAL of the client's, a SET, the role);
 *   <li>the extended protocol, in or out of a block: the same two queries, each run through a prepared statement
 *       and portal of the proxy's own name ({@link #NAME}), closed before (Close of a name that does not exist is
 *       no error) and after, so that neither the client's unnamed statement or portal nor its named ones are
 *       touched; the saving one before the client's Bind, where the server plans, the restoring one right after
 *       it, so that what the client pipelines behind runs under its own settings.
 * </ul>
 * Each query's {@code set_config} calls are evaluated left to right, so that a value is saved before it is set.
 */
final class DegradeMessages {

    /** The prepared statement and portal the proxy runs its own queries through in the extended protocol. */
    static final String NAME = "memogate_degrade";
    /** Where a setting's value is kept while the statement runs: a placeholder, which any role may set. */
    static final String SAVED_PREFIX = "memogate.saved_";
    /**
     * The answers that end each of the proxy's extended-protocol runs: CloseComplete twice, ParseComplete,
     * BindComplete, CommandComplete, CloseComplete twice (the DataRow of its query ends nothing).
     */
    static final int EXTENDED_RUN_ANSWERS = 7;

    private DegradeMessages() {
    }

    static String begin(Degradation degradation) {
        StringBuilder sql = new StringBuilder("begin");
        for (Map.Entry<String, String> setting : degradation.settings().entrySet()) {
            sql.append("; set local ").append(setting.getKey()).append(" = ").append(setting.getValue());
        }
        return sql.toString();
    }

    static final String COMMIT = "commit";

    /** Saves each setting's value in force, then sets the tighter one, for the transaction. */
    static String saveAndSet(Degradation degradation) {
        return degradation.settings().entrySet().stream()
                .map(s -> "set_config('" + SAVED_PREFIX + s.getKey() + "', current_setting('" + s.getKey()
                        + "'), true), set_config('" + s.getKey() + "', '" + s.getValue() + "', true)")
                .collect(Collectors.joining(", ", "select ", ""));
    }

    /** Sets each setting back to the value {@link #saveAndSet} saved. */
    static String restore(Degradation degradation) {
        return degradation.settings().keySet().stream()
                .map(name -> "set_config('" + name + "', current_setting('" + SAVED_PREFIX + name + "'), true)")
                .collect(Collectors.joining(", ", "select ", ""));
    }

    static void query(String sql, ByteBuf out) {
        new Query(sql).encode(out);
    }

    /** One of the proxy's queries through its own statement and portal: {@value #EXTENDED_RUN_ANSWERS} answers. */
    static void extendedRun(String sql, ByteBuf out) {
        closeOwn(out);
        new Parse(NAME, sql, List.of()).encode(out);
        new Bind(NAME, NAME).encode(out);
        new Execute(NAME, 0).encode(out);
        closeOwn(out);
    }

    private static void closeOwn(ByteBuf out) {
        new Close(StatementOrPortal.PORTAL, NAME).encode(out);
        new Close(StatementOrPortal.STATEMENT, NAME).encode(out);
    }
}
