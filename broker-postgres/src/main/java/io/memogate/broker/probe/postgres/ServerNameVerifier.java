package io.memogate.broker.probe.postgres;

import java.util.Properties;
import javax.net.ssl.HostnameVerifier;
import javax.net.ssl.SSLSession;
import org.postgresql.ssl.PGjdbcHostnameVerifier;

/**
 * pgjdbc's verify-full host name check made against another name than the host the monitoring
 * connection goes to: the server name a proxy configures for a backend reached by address, which its
 * own connections verify and send as SNI. pgjdbc checks the host in its URL and has no setting for
 * another name; it does load a HostnameVerifier by class name ({@code sslhostnameverifier}) and creates
 * it with the connection's properties, so a URL that names this class carries the name in
 * {@value #SERVER_NAME}. Which certificates match a name stays pgjdbc's own rule.
 *
 * <p>pgjdbc consults the verifier under {@code sslmode=verify-full} only, after the chain was checked
 * against {@code sslrootcert}.
 */
public final class ServerNameVerifier implements HostnameVerifier {

    /** The connection property that holds the name the server's certificate must carry. */
    public static final String SERVER_NAME = "memogateServerName";

    private final String serverName;

    /**
     * Called by pgjdbc (ObjectFactory tries a {@code Properties} constructor first).
     *
     * @throws IllegalArgumentException when the properties name no server: pgjdbc then refuses to connect
     *     ("could not be instantiated") rather than verify against nothing
     */
    public ServerNameVerifier(Properties connection) {
        String name = connection.getProperty(SERVER_NAME);
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("the connection property " + SERVER_NAME + " must name the server");
        }
        this.serverName = name;
    }

    /** @param host the host pgjdbc connected to, which the certificate need not name */
    @Override
    public boolean verify(String host, SSLSession session) {
        return PGjdbcHostnameVerifier.INSTANCE.verify(serverName, session);
    }

    @Override
    public String toString() {
        return "ServerNameVerifier[" + serverName + "]";
    }
}
