package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Creates a fresh database cluster with initdb and prepares its configuration files: pg_hba.conf and,
 * when asked, the TLS certificate and key.
 */
final class ClusterInitializer {

    private final Path installDirectory;
    private final ServerAccount account;
    private final ToolRunner tools;

    ClusterInitializer(Path installDirectory, ServerAccount account, ToolRunner tools) {
        this.installDirectory = installDirectory;
        this.account = account;
        this.tools = tools;
    }

    /**
     * Runs initdb into {@code dataDirectory}, which must not exist yet; its parent must be writable by
     * the server account. The superuser password goes through a file so that it never appears in a
     * process list; the file is removed afterwards.
     */
    void initialize(Path dataDirectory, String superuser, String password, Duration timeout) throws IOException {
        Path passwordFile = dataDirectory.resolveSibling("superuser.password");
        Files.writeString(passwordFile, password + "\n");
        Files.setPosixFilePermissions(passwordFile, PosixFilePermissions.fromString("rw-------"));
        account.own(passwordFile);
        try {
            tools.run(List.of(
                    installDirectory.resolve("bin/initdb").toString(),
                    "--pgdata=" + dataDirectory,
                    "--username=" + superuser,
                    "--pwfile=" + passwordFile,
                    // Placeholders only: pg_hba.conf is replaced below with the configured rules.
                    "--auth-local=trust",
                    "--auth-host=scram-sha-256",
                    "--encoding=UTF8",
                    // The C locale needs no OS locale data and sorts the same on every machine.
                    "--no-locale",
                    // A throwaway cluster gains nothing from fsync and initdb's sync alone costs seconds.
                    "--no-sync",
                    "--no-instructions"), timeout);
        } finally {
            Files.deleteIfExists(passwordFile);
        }
    }

    /** Replaces pg_hba.conf with {@code lines}; the server reads it at start. */
    void writeHba(Path dataDirectory, List<String> lines) throws IOException {
        Files.write(dataDirectory.resolve("pg_hba.conf"), lines);
    }

    /**
     * Copies the certificate and key into the data directory and returns the settings that enable TLS.
     * PostgreSQL refuses a key file that others can read, or that is owned by neither the server user
     * nor root (be-secure-common.c check_ssl_key_file_permissions), hence the copy with mode 0600.
     */
    Map<String, String> installTls(Path dataDirectory, ServerTls tls) throws IOException {
        Path certificate = dataDirectory.resolve("server.crt");
        Path key = dataDirectory.resolve("server.key");
        Files.copy(tls.certificateFile(), certificate, StandardCopyOption.REPLACE_EXISTING);
        Files.copy(tls.keyFile(), key, StandardCopyOption.REPLACE_EXISTING);
        for (Path file : List.of(certificate, key)) {
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            account.own(file);
        }
        Map<String, String> settings = new LinkedHashMap<>();
        settings.put("ssl", "on");
        settings.put("ssl_cert_file", certificate.toString());
        settings.put("ssl_key_file", key.toString());
        return settings;
    }
}
