package io.memogate.proxy.pg.auth;

import io.memogate.proxy.config.Secret;
import com.ongres.scram.common.ScramFunctions;
import com.ongres.scram.common.ScramMechanism;
import com.ongres.scram.common.StringPreparation;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One SCRAM-SHA-256 exchange as relayed between a client and a server (RFC 5802, RFC 7677): the three
 * messages that make the AuthMessage, and the client's proof. From a secret it yields the ClientKey the
 * client proved it has, or nothing when the secret is not the one the client used.
 *
 * <p>The library computes the primitives ({@link ScramFunctions}); this class only takes the relayed
 * texts apart, which no library does for a third party in the middle.
 */
final class ScramExchange {

    private static final ScramMechanism SHA_256 = ScramMechanism.SCRAM_SHA_256;

    private final String clientFirstBare;
    private final String serverFirst;
    private final String clientFinalWithoutProof;
    private final byte[] proof;
    private final byte[] salt;
    private final int iterations;

    /**
     * @throws IllegalArgumentException when a message is not what SCRAM-SHA-256 without channel binding sends
     */
    ScramExchange(String clientFirst, String serverFirst, String clientFinal) {
        // gs2-header: "n,," (no channel binding) or "y,," (client could, server offered none); then the bare message.
        if (!clientFirst.startsWith("n,,") && !clientFirst.startsWith("y,,")) {
            throw new IllegalArgumentException("the client's first SCRAM message does not start with n,, or y,,");
        }
        this.clientFirstBare = clientFirst.substring(3);
        this.serverFirst = serverFirst;
        int proofAt = clientFinal.lastIndexOf(",p=");
        if (proofAt < 0) {
            throw new IllegalArgumentException("the client's final SCRAM message has no proof");
        }
        this.clientFinalWithoutProof = clientFinal.substring(0, proofAt);
        this.proof = Base64.getDecoder().decode(clientFinal.substring(proofAt + 3));
        Map<String, String> server = attributes(serverFirst);
        if (!server.containsKey("s") || !server.containsKey("i")) {
            throw new IllegalArgumentException("the server's first SCRAM message has no salt or iteration count");
        }
        this.salt = Base64.getDecoder().decode(server.get("s"));
        this.iterations = Integer.parseInt(server.get("i"));
    }

    byte[] salt() {
        return salt.clone();
    }

    int iterations() {
        return iterations;
    }

    /** The ClientKey and ServerKey of {@code password}, if it is the password the client proved. */
    Optional<Relogin.Scram> withPassword(String password) {
        byte[] salted = ScramFunctions.saltedPassword(SHA_256, StringPreparation.POSTGRESQL_PREPARATION,
                password.toCharArray(), salt, iterations);
        byte[] clientKey = ScramFunctions.clientKey(SHA_256, salted);
        return proves(clientKey, ScramFunctions.storedKey(SHA_256, clientKey))
                ? Optional.of(new Relogin.Scram(clientKey, ScramFunctions.serverKey(SHA_256, salted), salt, iterations))
                : Optional.empty();
    }

    /**
     * The ClientKey recovered from the client's proof with the verifier's StoredKey (ClientKey = proof XOR
     * HMAC(StoredKey, AuthMessage)), if it hashes to that StoredKey: the client knew the password.
     */
    Optional<Relogin.Scram> withVerifier(Secret.ScramVerifier verifier) {
        if (verifier.iterations() != iterations || !MessageDigest.isEqual(verifier.salt(), salt)) {
            return Optional.empty();
        }
        byte[] signature = ScramFunctions.clientSignature(SHA_256, verifier.storedKey(), authMessage());
        if (signature.length != proof.length) {
            return Optional.empty();
        }
        byte[] clientKey = ScramFunctions.clientProof(proof, signature); // XOR both ways
        return MessageDigest.isEqual(ScramFunctions.storedKey(SHA_256, clientKey), verifier.storedKey())
                ? Optional.of(new Relogin.Scram(clientKey, verifier.serverKey(), salt, iterations))
                : Optional.empty();
    }

    private boolean proves(byte[] clientKey, byte[] storedKey) {
        byte[] signature = ScramFunctions.clientSignature(SHA_256, storedKey, authMessage());
        return MessageDigest.isEqual(ScramFunctions.clientProof(clientKey, signature), proof);
    }

    private String authMessage() {
        return clientFirstBare + "," + serverFirst + "," + clientFinalWithoutProof;
    }

    /** The k=v attributes of a SCRAM message (values may hold '=' but never ','). */
    static Map<String, String> attributes(String message) {
        Map<String, String> attributes = new HashMap<>();
        for (String part : message.split(",")) {
            int equals = part.indexOf('=');
            if (equals == 1) {
                attributes.putIfAbsent(part.substring(0, 1), part.substring(2));
            }
        }
        return attributes;
    }
}
