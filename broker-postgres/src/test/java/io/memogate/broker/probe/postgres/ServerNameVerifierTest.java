package io.memogate.broker.probe.postgres;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.lang.reflect.Proxy;
import java.nio.charset.StandardCharsets;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Properties;
import javax.net.ssl.SSLSession;
import org.junit.jupiter.api.Test;

/** The monitoring connection's host name check under verify-full, against the configured server name. */
class ServerNameVerifierTest {

    /**
     * Self-signed, CN and subjectAltName DNS:db5.internal, valid until 2126 (the verifier checks names,
     * not dates): {@code openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -days 36500
     * -subj /CN=db5.internal -addext subjectAltName=DNS:db5.internal}.
     */
    private static final String DB5_CERTIFICATE = """
            -----BEGIN CERTIFICATE-----
            MIIBnjCCAUSgAwIBAgIUDfkxnZodjoLIuV49g9CDGOVp4BowCgYIKoZIzj0EAwIw
            FzEVMBMGA1UEAwwMZGI1LmludGVybmFsMCAXDTI2MTEyMjA4MTIzN1oYDzIxMjYx
            MDI5MDgxMjM3WjAXMRUwEwYDVQQDDAxkYjUuaW50ZXJuYWwwWTATBgcqhkjOPQIB
            BggqhkjOPQMBBwNCAAQe90jRa8Ikuv3lgW1tdgccHbutdrX8N2WnJXtZvi9bALvS
            Xk8BSIDdmriSYOjDZjanqHsoTLXx9VbLHkHdpbtEo2wwajAdBgNVHQ4EFgQUPvgd
            Ojlr0KQoGvwaIfgCiatCyLYwHwYDVR0jBBgwFoAUPvgdOjlr0KQoGvwaIfgCiatC
            yLYwDwYDVR0TAQH/BAUwAwEB/zAXBgNVHREEEDAOggxkYjUuaW50ZXJuYWwwCgYI
            KoZIzj0EAwIDSAAwRQIhANTt1k2KU5pN6GMBkUxvki/TzwqAa9V1fPIfjoxcy8Wh
            AiA4/CFD8psLl4UYJk3GxPjHfmVsqdxT8zViFqwyM5WqLA==
            -----END CERTIFICATE-----
            """;

    @Test
    void checksTheCertificateAgainstTheServerNameNotTheAddressConnectedTo() throws Exception {
        SSLSession db5 = sessionPresenting(DB5_CERTIFICATE);

        assertThat(verifierFor("db5.internal").verify("10.0.0.8", db5)).isTrue();
        assertThat(verifierFor("db6.internal").verify("10.0.0.8", db5)).isFalse();
        assertThat(verifierFor("db6.internal").verify("db5.internal", db5))
                .as("the host connected to is not a second chance").isFalse();
    }

    @Test
    void refusesPropertiesThatNameNoServer() {
        assertThatThrownBy(() -> new ServerNameVerifier(new Properties()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the connection property memogateServerName must name the server");
    }

    private static ServerNameVerifier verifierFor(String serverName) {
        Properties connection = new Properties();
        connection.setProperty(ServerNameVerifier.SERVER_NAME, serverName);
        return new ServerNameVerifier(connection);
    }

    /** A TLS session whose peer presents {@code pem}; pgjdbc's check reads nothing else of it. */
    private static SSLSession sessionPresenting(String pem) throws Exception {
        X509Certificate certificate = (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
        return (SSLSession) Proxy.newProxyInstance(SSLSession.class.getClassLoader(), new Class<?>[] {SSLSession.class},
                (proxy, method, args) -> switch (method.getName()) {
                    case "getPeerCertificates" -> new X509Certificate[] {certificate}; // as JSSE returns them
                    default -> throw new UnsupportedOperationException(method.getName());
                });
    }
}
