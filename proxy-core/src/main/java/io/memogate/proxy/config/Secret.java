package io.memogate.proxy.config;

import java.util.Base64;
import java.util.HexFormat;

/**
 * A user's secret as an auth file holds it, in the three forms PgBouncer's auth_file accepts: the
 * password itself, PostgreSQL's md5 hash ("md5" + md5(password + user)), or a SCRAM-SHA-256 verifier as
 * pg_authid stores it ({@code SCRAM-SHA-256$iterations:salt$StoredKey:ServerKey}), which lets the proxy
 * log in again only after it has seen the client prove the password (see {@link LoginObserver}).
 */
public sealed interface Secret {

    String SCRAM_PREFIX = "SCRAM-SHA-256$";

    /** The password in clear: good for any method the server asks for. */
    record Plain(String password) implements Secret {
        @Override
        public String toString() {
            return "Plain[***]";
        }
    }

    /** md5(password + user) in hex: good for the md5 method only. */
    record Md5Hash(String hex) implements Secret {
        @Override
        public String toString() {
            return "Md5Hash[***]";
        }
    }

    /** A SCRAM-SHA-256 verifier: good for SCRAM once the client's proof has been seen. */
    record ScramVerifier(int iterations, byte[] salt, byte[] storedKey, byte[] serverKey) implements Secret {
        public ScramVerifier {
            salt = salt.clone();
            storedKey = storedKey.clone();
            serverKey = serverKey.clone();
        }

        @Override
        public byte[] salt() {
            return salt.clone();
        }

        @Override
        public byte[] storedKey() {
            return storedKey.clone();
        }

        @Override
        public byte[] serverKey() {
            return serverKey.clone();
        }

        @Override
        public String toString() {
            return "ScramVerifier[iterations=" + iterations + ", ***]";
        }
    }

    /**
     * Reads a secret as PgBouncer does: a value that parses as an md5 hash or a SCRAM verifier is one, any
     * other value is the password itself.
     *
     * @throws IllegalArgumentException for a value that starts like a SCRAM verifier but is not one
     */
    static Secret parse(String value) {
        if (value.length() == 35 && value.startsWith("md5") && isHex(value.substring(3))) {
            return new Md5Hash(value.substring(3));
        }
        if (value.startsWith(SCRAM_PREFIX)) {
            return scramVerifier(value);
        }
        return new Plain(value);
    }

    private static Secret scramVerifier(String value) {
        String[] parts = value.substring(SCRAM_PREFIX.length()).split("\\$", -1);
        String[] iterationsAndSalt = parts[0].split(":", -1);
        String[] keys = parts.length == 2 ? parts[1].split(":", -1) : new String[0];
        if (iterationsAndSalt.length != 2 || keys.length != 2) {
            throw new IllegalArgumentException("a SCRAM-SHA-256 secret must read "
                    + "SCRAM-SHA-256$<iterations>:<salt>$<StoredKey>:<ServerKey>");
        }
        try {
            int iterations = Integer.parseInt(iterationsAndSalt[0]);
            Base64.Decoder base64 = Base64.getDecoder();
            byte[] storedKey = base64.decode(keys[0]);
            byte[] serverKey = base64.decode(keys[1]);
            if (iterations < 1 || storedKey.length != 32 || serverKey.length != 32) {
                throw new IllegalArgumentException("a SCRAM-SHA-256 secret needs iterations >= 1 and 32-byte keys");
            }
            return new ScramVerifier(iterations, base64.decode(iterationsAndSalt[1]), storedKey, serverKey);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("a SCRAM-SHA-256 secret's iteration count is not a number", e);
        }
    }

    private static boolean isHex(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (!HexFormat.isHexDigit(text.charAt(i)) || Character.isUpperCase(text.charAt(i))) {
                return false;
            }
        }
        return true;
    }
}
