package io.memogate.proxy.pg.auth;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/** PostgreSQL's md5 method: the client answers "md5" + md5(md5(password + user) + salt), in lower-case hex. */
final class Md5Answer {

    private Md5Answer() {
    }

    /** md5(password + user): what pg_authid stores for an md5 password, without its "md5" prefix. */
    static String inner(String password, String user) {
        return hex(md5((password + user).getBytes(StandardCharsets.UTF_8)));
    }

    static String answer(String innerHex, byte[] salt) {
        byte[] inner = innerHex.getBytes(StandardCharsets.US_ASCII);
        byte[] salted = new byte[inner.length + salt.length];
        System.arraycopy(inner, 0, salted, 0, inner.length);
        System.arraycopy(salt, 0, salted, inner.length, salt.length);
        return "md5" + hex(md5(salted));
    }

    private static byte[] md5(byte[] data) {
        try {
            return MessageDigest.getInstance("MD5").digest(data);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("the JDK has no MD5", e);
        }
    }

    private static String hex(byte[] digest) {
        return HexFormat.of().formatHex(digest);
    }
}
