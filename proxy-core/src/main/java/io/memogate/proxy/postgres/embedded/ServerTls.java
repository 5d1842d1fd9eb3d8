package io.memogate.proxy.postgres.embedded;

import java.nio.file.Path;
import java.util.Objects;

/**
 * A certificate chain and its private key, both PEM files, that the embedded server presents when a
 * client asks for TLS. The files are copied into the data directory before start, so the originals
 * may have any owner and mode.
 */
public record ServerTls(Path certificateFile, Path keyFile) {

    public ServerTls {
        Objects.requireNonNull(certificateFile, "tls.certificateFile");
        Objects.requireNonNull(keyFile, "tls.keyFile");
    }
}
