package io.memogate.proxy.mysql.session;

import io.memogate.proxy.mysql.message.Commands;
import java.util.HashMap;
import java.util.Map;

/**
 * The text of each statement a session has prepared on its server connection, by the id the server's
 * PREPARE_OK gave it: what a COM_STMT_EXECUTE is admitted with, since the server optimizes the statement
 * again at every execute. COM_STMT_CLOSE forgets one; COM_RESET_CONNECTION and COM_CHANGE_USER, which
 * deallocate them all on the server, forget all. Used on the session's event loop only.
 */
final class PreparedTexts {

    private final Map<Long, String> byId = new HashMap<>();
    /** The text of the last COM_STMT_PREPARE sent: MariaDB's {@link Commands#LAST_PREPARED} names it. */
    private String lastSent = "";

    void sent(String text) {
        lastSent = text;
    }

    void prepared(long id, String text) {
        byId.put(id, text);
    }

    /** The statement's text; empty when the proxy never saw it prepared. */
    String textOf(long id) {
        return id == Commands.LAST_PREPARED ? lastSent : byId.getOrDefault(id, "");
    }

    void closed(long id) {
        byId.remove(id);
    }

    void clear() {
        byId.clear();
        lastSent = "";
    }

    int size() {
        return byId.size();
    }
}
