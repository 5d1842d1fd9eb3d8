package io.memogate.proxy.admin;

import io.memogate.proxy.admission.SessionInfo;
import java.util.concurrent.CompletionStage;

/**
 * The admin console as a protocol sees it: who may use it, where its logins are authenticated, and a
 * command's answer. The protocol relays the login to a server and asks {@link #admits} only after that
 * server has accepted it: the proxy never decides authentication itself.
 */
public interface ConsoleService {

    /** Whether {@code role}, authenticated by the server, may use the console (admin.users, as configured now). */
    boolean admits(String role);

    /** The database console logins are relayed to on the default backend (admin.authDatabase). */
    String authDatabase();

    /**
     * Runs one command. Completes with the answer, or exceptionally with a {@link ConsoleException} (the
     * session goes on); may complete on another thread.
     */
    CompletionStage<ConsoleResult> execute(String command, SessionInfo caller);
}
