package io.memogate.proxy.pg.auth;

import com.ongres.scram.client.ScramClient;
import com.ongres.scram.common.exception.ScramException;
import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.Optional;

/**
 * The proxy's own side of a login it repeats for a client ({@link Relogin}): the answer to each
 * Authentication request of the new server connection. A request the client's login did not have
 * (the role's method or password changed since) fails before any secret is sent to the server.
 * One instance per login; used on one thread.
 */
public final class ServerLogin {

    private final Relogin relogin;
    private ScramClient scram;
    private boolean serverVerified;

    public ServerLogin(Relogin relogin) {
        this.relogin = relogin;
    }

    /**
     * The answer to send for {@code request}; empty when it needs none.
     *
     * @throws LoginException when this login cannot answer it
     */
    public Optional<PasswordResponse> answer(Authentication request) throws LoginException {
        return switch (request) {
            case Authentication.Ok ok -> {
                if (relogin instanceof Relogin.Scram && !serverVerified) {
                    throw new LoginException("the server accepted the login without proving it knows the password");
                }
                yield Optional.empty();
            }
            case Authentication.CleartextPassword clear when relogin instanceof Relogin.Cleartext password ->
                    Optional.of(new PasswordResponse.Password(password.password()));
            case Authentication.Md5Password md5 when relogin instanceof Relogin.Md5 hash ->
                    Optional.of(new PasswordResponse.Password(Md5Answer.answer(hash.innerHex(), md5.salt())));
            case Authentication.Sasl sasl when relogin instanceof Relogin.Scram keys -> Optional.of(scramFirst(sasl, keys));
            case Authentication.SaslContinue next when scram != null -> Optional.of(scramFinal(next));
            case Authentication.SaslFinal done when scram != null -> {
                verifyServer(done);
                yield Optional.empty();
            }
            default -> throw new LoginException("the server asked for " + describe(request)
                    + " where the client's login used " + relogin.method());
        };
    }

    private PasswordResponse scramFirst(Authentication.Sasl sasl, Relogin.Scram keys) throws LoginException {
        if (!sasl.mechanisms().contains("SCRAM-SHA-256")) {
            throw new LoginException("the server offers " + sasl.mechanisms() + ", not SCRAM-SHA-256");
        }
        // Without channel binding data the library picks plain SCRAM-SHA-256 even where -PLUS is offered.
        scram = ScramClient.builder()
                .advertisedMechanisms(sasl.withoutChannelBinding().mechanisms())
                .username("*") // PostgreSQL ignores it: the role is the StartupMessage's user
                .clientAndServerKey(keys.clientKey(), keys.serverKey())
                .build();
        return new PasswordResponse.SaslInitial(scram.getScramMechanism().getName(), scram.clientFirstMessage().toString());
    }

    private PasswordResponse scramFinal(Authentication.SaslContinue next) throws LoginException {
        Relogin.Scram keys = (Relogin.Scram) relogin;
        var server = ScramExchange.attributes(next.text());
        // A new password gives a new salt: stop here rather than send a proof the server will refuse.
        if (!String.valueOf(keys.iterations()).equals(server.get("i")) || server.get("s") == null
                || !MessageDigest.isEqual(Base64.getDecoder().decode(server.get("s")), keys.salt())) {
            throw new LoginException("the role's SCRAM salt or iteration count changed since the client logged in");
        }
        try {
            scram.serverFirstMessage(next.text());
            return new PasswordResponse.SaslResponse(scram.clientFinalMessage().toString());
        } catch (ScramException | IllegalArgumentException e) {
            throw new LoginException("the server's SCRAM message was refused: " + e.getMessage());
        }
    }

    private void verifyServer(Authentication.SaslFinal done) throws LoginException {
        try {
            scram.serverFinalMessage(done.text());
            serverVerified = true;
        } catch (ScramException | IllegalArgumentException e) {
            throw new LoginException("the server's SCRAM signature did not verify: " + e.getMessage());
        }
    }

    private static String describe(Authentication request) {
        return switch (request) {
            case Authentication.CleartextPassword clear -> "a cleartext password";
            case Authentication.Md5Password md5 -> "an md5 password";
            case Authentication.Sasl sasl -> "SASL " + sasl.mechanisms();
            case Authentication.Other other -> "authentication method " + other.code();
            default -> "an unexpected " + request.getClass().getSimpleName();
        };
    }

    /** The login cannot go on; the message says why, for the log and the client's error. */
    public static final class LoginException extends Exception {
        public LoginException(String message) {
            super(message);
        }
    }
}
