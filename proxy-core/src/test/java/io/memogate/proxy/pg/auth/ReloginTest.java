package io.memogate.proxy.pg.auth;

import io.memogate.proxy.config.Secret;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.ongres.scram.client.ScramClient;
import com.ongres.scram.common.ScramFunctions;
import com.ongres.scram.common.ScramMechanism;
import com.ongres.scram.common.StringPreparation;
import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A relayed login observed ({@link LoginObserver}) and repeated ({@link ServerLogin}), with a server
 * played by the test from RFC 5802's formulas (the integration test RecycleIT does the same against
 * PostgreSQL itself).
 */
class ReloginTest {

    private static final ScramMechanism SHA_256 = ScramMechanism.SCRAM_SHA_256;
    private static final String USER = "alice";
    private static final String PASSWORD = "pencil";
    private static final byte[] SALT = "sixteen byte slt".getBytes(StandardCharsets.US_ASCII);
    private static final int ITERATIONS = 4096;

    /** The server's side of one SCRAM exchange: its nonce, salt and keys. */
    private static final class ScramServer {
        final byte[] salted = ScramFunctions.saltedPassword(SHA_256, StringPreparation.POSTGRESQL_PREPARATION,
                PASSWORD.toCharArray(), SALT, ITERATIONS);
        final byte[] storedKey = ScramFunctions.storedKey(SHA_256, ScramFunctions.clientKey(SHA_256, salted));
        final byte[] serverKey = ScramFunctions.serverKey(SHA_256, salted);
        String clientFirstBare;
        String serverFirst;

        String first(String clientFirst, byte[] salt) {
            clientFirstBare = clientFirst.substring(3);
            String nonce = ScramExchange.attributes(clientFirstBare).get("r");
            serverFirst = "r=" + nonce + "servernonce,s=" + Base64.getEncoder().encodeToString(salt) + ",i=" + ITERATIONS;
            return serverFirst;
        }

        /** The server-final-message, or null when the proof is wrong. */
        String last(String clientFinal) {
            Secret.ScramVerifier verifier = new Secret.ScramVerifier(ITERATIONS, SALT, storedKey, serverKey);
            if (new ScramExchange("n,," + clientFirstBare, serverFirst, clientFinal).withVerifier(verifier).isEmpty()) {
                return null;
            }
            String authMessage = clientFirstBare + "," + serverFirst + "," + clientFinal.substring(0, clientFinal.lastIndexOf(",p="));
            return "v=" + Base64.getEncoder().encodeToString(ScramFunctions.serverSignature(SHA_256, serverKey, authMessage));
        }

        Secret.ScramVerifier verifier() {
            return new Secret.ScramVerifier(ITERATIONS, SALT, storedKey, serverKey);
        }
    }

    private static ByteBuf frame(PasswordResponse message) {
        ByteBuf out = Unpooled.buffer();
        message.encode(out);
        return out;
    }

    /** A client (the library, as pgjdbc uses it) logging in through the observer. */
    private static LoginObserver.Outcome observeScramLogin(ScramServer server, Map<String, Secret> file) throws Exception {
        LoginObserver observer = new LoginObserver(USER, user -> Optional.ofNullable(file.get(user)));
        ScramClient client = ScramClient.builder().advertisedMechanisms(List.of("SCRAM-SHA-256")).username("*")
                .password(PASSWORD.toCharArray()).build();
        observer.server(new Authentication.Sasl(List.of("SCRAM-SHA-256")));
        String clientFirst = client.clientFirstMessage().toString();
        observer.client(frame(new PasswordResponse.SaslInitial("SCRAM-SHA-256", clientFirst)));
        String serverFirst = server.first(clientFirst, SALT);
        observer.server(new Authentication.SaslContinue(serverFirst.getBytes(StandardCharsets.UTF_8)));
        client.serverFirstMessage(serverFirst);
        String clientFinal = client.clientFinalMessage().toString();
        observer.client(frame(new PasswordResponse.SaslResponse(clientFinal)));
        String serverFinal = server.last(clientFinal);
        assertThat(serverFinal).as("the library's proof is right").isNotNull();
        observer.server(new Authentication.SaslFinal(serverFinal.getBytes(StandardCharsets.UTF_8)));
        observer.server(Authentication.Ok.INSTANCE);
        return observer.outcome();
    }

    /** The proxy's own login against the test's server; returns whether the server accepted it. */
    private static void repeatScramLogin(ScramServer server, Relogin relogin, byte[] saltNow) throws Exception {
        ServerLogin login = new ServerLogin(relogin);
        PasswordResponse.SaslInitial initial = (PasswordResponse.SaslInitial) login.answer(
                new Authentication.Sasl(List.of("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256"))).orElseThrow();
        assertThat(initial.mechanism()).as("no channel binding data, so never -PLUS").isEqualTo("SCRAM-SHA-256");
        String serverFirst = server.first(initial.message(), saltNow);
        PasswordResponse.SaslResponse last = (PasswordResponse.SaslResponse) login.answer(
                new Authentication.SaslContinue(serverFirst.getBytes(StandardCharsets.UTF_8))).orElseThrow();
        String serverFinal = server.last(last.message());
        assertThat(serverFinal).as("the server accepts the repeated proof").isNotNull();
        assertThat(login.answer(new Authentication.SaslFinal(serverFinal.getBytes(StandardCharsets.UTF_8)))).isEmpty();
        assertThat(login.answer(Authentication.Ok.INSTANCE)).isEmpty();
    }

    @Test
    void scramWithThePasswordInTheFile() throws Exception {
        ScramServer server = new ScramServer();
        LoginObserver.Outcome outcome = observeScramLogin(server, Map.of(USER, new Secret.Plain(PASSWORD)));
        assertThat(outcome.relogin()).containsInstanceOf(Relogin.Scram.class);
        repeatScramLogin(server, outcome.relogin().orElseThrow(), SALT);
    }

    @Test
    void scramWithTheServersVerifierInTheFile() throws Exception {
        ScramServer server = new ScramServer();
        LoginObserver.Outcome outcome = observeScramLogin(server, Map.of(USER, server.verifier()));
        Relogin.Scram keys = (Relogin.Scram) outcome.relogin().orElseThrow();
        assertThat(keys.clientKey()).as("the ClientKey recovered from the proof")
                .isEqualTo(ScramFunctions.clientKey(SHA_256, server.salted));
        repeatScramLogin(server, keys, SALT);
    }

    @Test
    void aWrongOrMissingSecretMeansNoRelogin() throws Exception {
        ScramServer server = new ScramServer();
        assertThat(observeScramLogin(server, Map.of(USER, new Secret.Plain("wrong"))).reason())
                .isEqualTo("the auth file's secret for alice does not give the client's SCRAM proof");
        assertThat(observeScramLogin(server, Map.of()).reason())
                .isEqualTo("the server asked for SCRAM-SHA-256 and the auth file has no entry for alice");
        assertThat(observeScramLogin(server, Map.of(USER, new Secret.Md5Hash("0".repeat(32)))).relogin()).isEmpty();
    }

    @Test
    void withoutAnAuthFileTheReasonSaysSoRatherThanBlamingAnEntry() {
        LoginObserver observer = new LoginObserver(USER, user -> Optional.empty(), false);
        observer.server(new Authentication.Md5Password(new byte[] {1, 2, 3, 4}));
        assertThat(observer.outcome().reason())
                .isEqualTo("the server asked for md5 and no recycle.authFile is configured to answer it");
    }

    @Test
    void aNewSaltStopsTheLoginBeforeAProofIsSent() throws Exception {
        ScramServer server = new ScramServer();
        Relogin relogin = observeScramLogin(server, Map.of(USER, new Secret.Plain(PASSWORD))).relogin().orElseThrow();
        assertThatThrownBy(() -> repeatScramLogin(server, relogin, "another salt....".getBytes(StandardCharsets.US_ASCII)))
                .isInstanceOf(ServerLogin.LoginException.class).hasMessageContaining("salt or iteration count changed");
    }

    private static String md5Hex(String text) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance("MD5").digest(text.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void md5FromThePasswordOrTheHash() throws Exception {
        byte[] salt = {1, 2, 3, 4};
        String inner = md5Hex(PASSWORD + USER);
        String answer = "md5" + md5Hex(inner + new String(salt, StandardCharsets.ISO_8859_1));
        for (Secret secret : List.of(new Secret.Plain(PASSWORD), new Secret.Md5Hash(inner))) {
            LoginObserver observer = new LoginObserver(USER, user -> Optional.of(secret));
            observer.server(new Authentication.Md5Password(salt));
            observer.client(frame(new PasswordResponse.Password(answer)));
            observer.server(Authentication.Ok.INSTANCE);
            Relogin relogin = observer.outcome().relogin().orElseThrow();
            byte[] newSalt = {9, 8, 7, 6};
            assertThat(new ServerLogin(relogin).answer(new Authentication.Md5Password(newSalt)))
                    .contains(new PasswordResponse.Password(
                            "md5" + md5Hex(inner + new String(newSalt, StandardCharsets.ISO_8859_1))));
        }
        LoginObserver wrong = new LoginObserver(USER, user -> Optional.of(new Secret.Plain("wrong")));
        wrong.server(new Authentication.Md5Password(salt));
        wrong.client(frame(new PasswordResponse.Password(answer)));
        wrong.server(Authentication.Ok.INSTANCE);
        assertThat(wrong.outcome().relogin()).isEmpty();
    }

    @Test
    void trustAndCleartextNeedNoFile() throws Exception {
        LoginObserver trust = new LoginObserver(USER, user -> Optional.empty());
        trust.server(Authentication.Ok.INSTANCE);
        assertThat(trust.outcome().relogin()).contains(Relogin.Trust.INSTANCE);
        assertThat(new ServerLogin(Relogin.Trust.INSTANCE).answer(Authentication.Ok.INSTANCE)).isEmpty();
        assertThatThrownBy(() -> new ServerLogin(Relogin.Trust.INSTANCE).answer(Authentication.CleartextPassword.INSTANCE))
                .isInstanceOf(ServerLogin.LoginException.class)
                .hasMessage("the server asked for a cleartext password where the client's login used trust");

        LoginObserver clear = new LoginObserver(USER, user -> Optional.empty());
        clear.server(Authentication.CleartextPassword.INSTANCE);
        clear.client(frame(new PasswordResponse.Password(PASSWORD)));
        clear.server(Authentication.Ok.INSTANCE);
        Relogin relogin = clear.outcome().relogin().orElseThrow();
        assertThat(new ServerLogin(relogin).answer(Authentication.CleartextPassword.INSTANCE))
                .contains(new PasswordResponse.Password(PASSWORD));
    }

    @Test
    void otherMethodsCannotBeRepeated() {
        LoginObserver gss = new LoginObserver(USER, user -> Optional.empty());
        gss.server(new Authentication.Other(7));
        gss.server(Authentication.Ok.INSTANCE);
        assertThat(gss.outcome().reason()).isEqualTo("the server asked for authentication method 7");

        LoginObserver plus = new LoginObserver(USER, user -> Optional.of(new Secret.Plain(PASSWORD)));
        plus.server(new Authentication.Sasl(List.of("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256")));
        plus.client(frame(new PasswordResponse.SaslInitial("SCRAM-SHA-256-PLUS", "p=tls-server-end-point,,n=,r=abc")));
        plus.server(Authentication.Ok.INSTANCE);
        assertThat(plus.outcome().reason()).isEqualTo("the client chose SCRAM-SHA-256-PLUS");
    }
}
