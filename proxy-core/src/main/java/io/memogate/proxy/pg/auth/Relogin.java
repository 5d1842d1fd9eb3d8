package io.memogate.proxy.pg.auth;

/**
 * What the proxy may answer a server to log a client in again, learned from the client's own login
 * ({@link LoginObserver}): exactly the method the server asked for then, with what the client proved.
 */
public sealed interface Relogin {

    /** In words for logs and SHOW CLIENTS, never the secret. */
    String method();

    /** The server asked for nothing (trust, peer over TCP is not possible, cert: the TLS leg is the proxy's). */
    record Trust() implements Relogin {
        public static final Trust INSTANCE = new Trust();

        @Override
        public String method() {
            return "trust";
        }
    }

    /** The server asked for the password in clear and the client sent it. */
    record Cleartext(String password) implements Relogin {
        @Override
        public String method() {
            return "password";
        }

        @Override
        public String toString() {
            return "Cleartext[***]";
        }
    }

    /** md5: md5(password + user) in hex, which answers any salt. */
    record Md5(String innerHex) implements Relogin {
        @Override
        public String method() {
            return "md5";
        }

        @Override
        public String toString() {
            return "Md5[***]";
        }
    }

    /**
     * SCRAM-SHA-256: the ClientKey and ServerKey, which answer any nonce; valid while the server's salt and
     * iteration count for the role stay what they were (a new password changes them).
     */
    record Scram(byte[] clientKey, byte[] serverKey, byte[] salt, int iterations) implements Relogin {
        public Scram {
            clientKey = clientKey.clone();
            serverKey = serverKey.clone();
            salt = salt.clone();
        }

        @Override
        public byte[] clientKey() {
            return clientKey.clone();
        }

        @Override
        public byte[] serverKey() {
            return serverKey.clone();
        }

        @Override
        public byte[] salt() {
            return salt.clone();
        }

        @Override
        public String method() {
            return "scram-sha-256";
        }

        @Override
        public String toString() {
            return "Scram[***]";
        }
    }
}
