package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;

/**
 * The one server a test JVM shares: TLS on with a fresh self-signed certificate, the {@link TestUsers}
 * created and the demo schema loaded. Closed by JUnit at the end of the run (it lives in the root
 * extension store, which closes AutoCloseable values).
 */
public final class SharedPostgres implements AutoCloseable {

    private final EmbeddedPostgres server;
    private final SelfSignedCertificate certificate;
    private final Path certificateDirectory;

    private SharedPostgres(EmbeddedPostgres server, SelfSignedCertificate certificate, Path certificateDirectory) {
        this.server = server;
        this.certificate = certificate;
        this.certificateDirectory = certificateDirectory;
    }

    static SharedPostgres start() throws IOException, SQLException {
        Path certificateDirectory = Files.createTempDirectory("memogate-test-tls-");
        SelfSignedCertificate certificate;
        EmbeddedPostgres server;
        try {
            certificate = SelfSignedCertificate.generate(certificateDirectory);
            server = EmbeddedPostgres.start(EmbeddedPostgresOptions.builder()
                    .tls(certificate.certificateFile(), certificate.keyFile())
                    .build());
        } catch (IOException | RuntimeException e) {
            FileTrees.deleteRecursively(certificateDirectory);
            throw e;
        }
        SharedPostgres shared = new SharedPostgres(server, certificate, certificateDirectory);
        try {
            server.createUser(TestUsers.SCRAM_USER, TestUsers.SCRAM_PASSWORD, PasswordKind.SCRAM);
            server.execute("postgres", "ALTER ROLE " + TestUsers.SCRAM_USER + " SUPERUSER");
            server.createUser(TestUsers.MD5_USER, TestUsers.MD5_PASSWORD, PasswordKind.MD5);
            server.createUser(TestUsers.TRUST_USER);
            server.createUser(TestUsers.PLAIN_USER, TestUsers.PLAIN_PASSWORD, PasswordKind.SCRAM);
            new DemoSchema(server).load();
            return shared;
        } catch (SQLException | RuntimeException e) {
            try {
                shared.close();
            } catch (IOException | RuntimeException cleanup) {
                e.addSuppressed(cleanup);
            }
            throw e;
        }
    }

    public EmbeddedPostgres server() {
        return server;
    }

    /** The certificate the server presents; clients verify-full against its file. */
    public SelfSignedCertificate certificate() {
        return certificate;
    }

    @Override
    public void close() throws IOException {
        try {
            server.close();
        } finally {
            FileTrees.deleteRecursively(certificateDirectory);
        }
    }
}
