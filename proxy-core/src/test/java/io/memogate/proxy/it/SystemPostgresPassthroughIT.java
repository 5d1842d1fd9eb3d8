package io.memogate.proxy.it;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import org.junit.jupiter.api.BeforeAll;

/**
 * The pass-through contract against the machine's own PostgreSQL (15 on these machines, trust
 * authentication on 127.0.0.1:5432), an extra server version where one is installed; skipped with a
 * message where none listens.
 */
class SystemPostgresPassthroughIT extends PassthroughContract {

    private static final String HOST = "127.0.0.1";
    private static final int PORT = Integer.getInteger("memogate.test.systemPostgresPort", 5432);

    @BeforeAll
    static void requireServer() {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(HOST, PORT), 1000);
        } catch (IOException e) {
            assumeTrue(false, "no PostgreSQL listens on " + HOST + ":" + PORT + " (" + e.getMessage()
                    + "); the embedded server's suite still runs");
        }
    }

    @Override
    protected Backend backend() {
        return new Backend(HOST, PORT, "postgres", "postgres", null);
    }
}
