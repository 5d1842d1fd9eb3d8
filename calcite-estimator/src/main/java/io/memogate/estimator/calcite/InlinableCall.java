package io.memogate.estimator.calcite;

import java.util.Locale;
import java.util.Set;
import org.apache.calcite.sql.SqlCall;
import org.apache.calcite.sql.SqlNode;
import org.apache.calcite.sql.SqlNodeList;

/**
 * Whether PostgreSQL may inline a function call in FROM, as far as its arguments tell: not when a sub-select
 * or a call of one of its volatile built-ins is anywhere in them ({@code inline_set_returning_function}:
 * {@code contain_subplans}, {@code contain_volatile_functions}). A user's function in an argument is volatile
 * unless declared otherwise, which the SQL does not show: it is taken as not, the reading that counts more
 * relations.
 */
final class InlinableCall {

    /** PostgreSQL's volatile built-ins an argument commonly calls ({@code pg_proc.provolatile = 'v'}). */
    private static final Set<String> VOLATILE = Set.of("random", "random_normal", "nextval", "setval", "currval",
            "lastval", "clock_timestamp", "timeofday", "gen_random_uuid", "uuid_generate_v4", "txid_current",
            "pg_sleep");

    private InlinableCall() {
    }

    static boolean argumentsAllow(SqlCall call) {
        return call.getOperandList().stream().noneMatch(InlinableCall::forbids);
    }

    private static boolean forbids(SqlNode node) {
        if (node == null) {
            return false;
        }
        if (SqlKinds.isQuery(node.getKind())) {
            return true;
        }
        if (node instanceof SqlNodeList list) {
            return list.stream().anyMatch(InlinableCall::forbids);
        }
        return node instanceof SqlCall call && (VOLATILE.contains(call.getOperator().getName().toLowerCase(Locale.ROOT))
                || call.getOperandList().stream().anyMatch(InlinableCall::forbids));
    }
}
