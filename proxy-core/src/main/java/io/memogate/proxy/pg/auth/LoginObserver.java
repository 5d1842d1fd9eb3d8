package io.memogate.proxy.pg.auth;

import io.memogate.proxy.config.Secret;
import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import io.netty.buffer.ByteBuf;
import java.security.MessageDigest;
import java.nio.charset.StandardCharsets;
import java.util.Optional;
import java.util.function.Function;

/**
 * Watches a client's login as the proxy relays it and works out whether, and how, the proxy could log
 * the same client in again itself ({@link Relogin}):
 * <ul>
 *   <li>the server asked for nothing (trust): the same StartupMessage again;
 *   <li>cleartext password: the password the client sent;
 *   <li>md5: the auth file's password or md5 hash for the user, if it gives the answer the client gave;
 *   <li>SCRAM-SHA-256: the auth file's password or verifier for the user, if it yields the proof the
 *       client sent — so a wrong or stale file entry is found now, not by a failed login later;
 *   <li>anything else (GSS, SSPI, SCRAM with channel binding): not possible.
 * </ul>
 * The relay never waits for this and is never changed by it; a message it cannot read only means no
 * relogin. Used on the session's event loop only.
 */
public final class LoginObserver {

    private final String user;
    private final Function<String, Optional<Secret>> secrets;
    /** Whether recycle.authFile names a file: without one, a missing secret is no missing entry. */
    private final boolean authFileNamed;
    /** The last request the server made; null before the first. */
    private Authentication request;
    private String clearPassword;
    private String md5Answer;
    private String scramClientFirst;
    private String scramServerFirst;
    private String scramClientFinal;
    private String impossible;

    public LoginObserver(String user, Function<String, Optional<Secret>> secrets) {
        this(user, secrets, true);
    }

    /** @param authFileNamed whether {@code secrets} come from a recycle.authFile, so a missing one is its gap */
    public LoginObserver(String user, Function<String, Optional<Secret>> secrets, boolean authFileNamed) {
        this.user = user;
        this.secrets = secrets;
        this.authFileNamed = authFileNamed;
    }

    /** An Authentication request from the server, before it is relayed. */
    public void server(Authentication message) {
        switch (message) {
            case Authentication.Ok ok -> { }
            case Authentication.CleartextPassword clear -> request = clear;
            case Authentication.Md5Password md5 -> request = md5;
            case Authentication.Sasl sasl -> request = sasl;
            case Authentication.SaslContinue next -> scramServerFirst = next.text();
            case Authentication.SaslFinal done -> { }
            case Authentication.Other other -> impossible = "the server asked for authentication method " + other.code();
        }
    }

    /** A frame from the client during authentication: a password or SASL answer is read, the rest ignored. */
    public void client(ByteBuf frame) {
        if (frame.getByte(frame.readerIndex()) != PasswordResponse.TYPE || impossible != null) {
            return;
        }
        try {
            switch (request) {
                case Authentication.CleartextPassword clear -> clearPassword = PasswordResponse.Password.decode(frame).password();
                case Authentication.Md5Password md5 -> md5Answer = PasswordResponse.Password.decode(frame).password();
                case Authentication.Sasl sasl when scramClientFirst == null -> {
                    PasswordResponse.SaslInitial initial = PasswordResponse.SaslInitial.decode(frame);
                    if (!initial.mechanism().equals("SCRAM-SHA-256")) {
                        impossible = "the client chose " + initial.mechanism();
                    }
                    scramClientFirst = initial.message();
                }
                case Authentication.Sasl sasl -> scramClientFinal = PasswordResponse.SaslResponse.decode(frame).message();
                case null, default -> { }
            }
        } catch (RuntimeException unreadable) {
            impossible = "the client's answer could not be read: " + unreadable.getMessage();
        }
    }

    /** After AuthenticationOk: how to log in again, or why the proxy cannot. */
    public Outcome outcome() {
        if (impossible != null) {
            return Outcome.impossible(impossible);
        }
        try {
            return switch (request) {
                case null -> Outcome.of(Relogin.Trust.INSTANCE);
                case Authentication.CleartextPassword clear -> clearPassword == null
                        ? Outcome.impossible("no password was seen")
                        : Outcome.of(new Relogin.Cleartext(clearPassword));
                case Authentication.Md5Password md5 -> md5(md5.salt());
                case Authentication.Sasl sasl -> scram();
                default -> Outcome.impossible("the server asked for " + request);
            };
        } catch (RuntimeException unreadable) {
            return Outcome.impossible("the login could not be read: " + unreadable.getMessage());
        }
    }

    private String noSecret(String method) {
        return "the server asked for " + method + (authFileNamed ? " and the auth file has no entry for " + user
                : " and no recycle.authFile is configured to answer it");
    }

    private Outcome md5(byte[] salt) {
        Optional<Secret> secret = secrets.apply(user);
        if (secret.isEmpty()) {
            return Outcome.impossible(noSecret("md5"));
        }
        String inner = switch (secret.get()) {
            case Secret.Plain plain -> Md5Answer.inner(plain.password(), user);
            case Secret.Md5Hash hash -> hash.hex();
            case Secret.ScramVerifier verifier -> null;
        };
        if (inner == null || md5Answer == null || !MessageDigest.isEqual(
                Md5Answer.answer(inner, salt).getBytes(StandardCharsets.US_ASCII),
                md5Answer.getBytes(StandardCharsets.US_ASCII))) {
            return Outcome.impossible("the auth file's secret for " + user + " does not give the client's md5 answer");
        }
        return Outcome.of(new Relogin.Md5(inner));
    }

    private Outcome scram() {
        Optional<Secret> secret = secrets.apply(user);
        if (secret.isEmpty()) {
            return Outcome.impossible(noSecret("SCRAM-SHA-256"));
        }
        if (scramClientFirst == null || scramServerFirst == null || scramClientFinal == null) {
            return Outcome.impossible("the SCRAM exchange was not seen whole");
        }
        ScramExchange exchange = new ScramExchange(scramClientFirst, scramServerFirst, scramClientFinal);
        Optional<Relogin.Scram> keys = switch (secret.get()) {
            case Secret.Plain plain -> exchange.withPassword(plain.password());
            case Secret.ScramVerifier verifier -> exchange.withVerifier(verifier);
            case Secret.Md5Hash hash -> Optional.empty();
        };
        return keys.<Outcome>map(Outcome::of).orElseGet(() -> Outcome.impossible(
                "the auth file's secret for " + user + " does not give the client's SCRAM proof"));
    }

    /** Either a way to log in again or the reason there is none. */
    public record Outcome(Optional<Relogin> relogin, String reason) {
        static Outcome of(Relogin relogin) {
            return new Outcome(Optional.of(relogin), "");
        }

        static Outcome impossible(String reason) {
            return new Outcome(Optional.empty(), reason);
        }
    }
}
