package io.memogate.proxy.postgres.embedded;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.security.cert.X509Certificate;
import java.security.spec.ECGenParameterSpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Date;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.ExtendedKeyUsage;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.asn1.x509.KeyPurposeId;
import org.bouncycastle.asn1.x509.KeyUsage;
import org.bouncycastle.cert.X509v3CertificateBuilder;
import org.bouncycastle.cert.jcajce.JcaX509CertificateConverter;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.openssl.jcajce.JcaMiscPEMGenerator;
import org.bouncycastle.openssl.jcajce.JcaPEMWriter;
import org.bouncycastle.openssl.jcajce.JcaPKCS8Generator;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;
import org.bouncycastle.util.io.pem.PemObjectGenerator;

/**
 * A self-signed server certificate for localhost and 127.0.0.1, written as PEM files: the certificate
 * doubles as its own trust anchor, so a client can verify-full against {@link #certificateFile()}.
 *
 * <p>It is marked as a CA (like {@code openssl req -x509}) because OpenSSL-based clients such as psql
 * accept a trusted root only if it may sign; the key is PKCS#8 ("BEGIN PRIVATE KEY"), which both
 * PostgreSQL and Netty's SslContextBuilder read.
 *
 * @param certificateFile PEM certificate
 * @param keyFile         PEM PKCS#8 private key, mode 0600
 * @param certificate     the certificate itself, for trust stores
 */
public record SelfSignedCertificate(Path certificateFile, Path keyFile, X509Certificate certificate) {

    /** Generates a fresh EC P-256 key and a certificate valid for one day into {@code directory}. */
    public static SelfSignedCertificate generate(Path directory) throws IOException {
        try {
            // EC P-256 rather than RSA: generating an RSA key takes seconds on a busy CI machine.
            KeyPairGenerator generator = KeyPairGenerator.getInstance("EC");
            generator.initialize(new ECGenParameterSpec("secp256r1"));
            KeyPair keys = generator.generateKeyPair();
            X500Name name = new X500Name("CN=localhost");
            Instant now = Instant.now();
            X509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()),
                    Date.from(now.minus(Duration.ofHours(1))), // tolerate clock skew
                    Date.from(now.plus(Duration.ofDays(1))), name, keys.getPublic())
                    .addExtension(Extension.subjectAlternativeName, false, new GeneralNames(new GeneralName[] {
                            new GeneralName(GeneralName.dNSName, "localhost"),
                            new GeneralName(GeneralName.iPAddress, "127.0.0.1")}))
                    .addExtension(Extension.basicConstraints, true, new BasicConstraints(true))
                    .addExtension(Extension.keyUsage, true, new KeyUsage(
                            KeyUsage.digitalSignature | KeyUsage.keyCertSign))
                    .addExtension(Extension.extendedKeyUsage, false,
                            new ExtendedKeyUsage(KeyPurposeId.id_kp_serverAuth));
            X509Certificate certificate = new JcaX509CertificateConverter().getCertificate(
                    builder.build(new JcaContentSignerBuilder("SHA256withECDSA").build(keys.getPrivate())));

            Path certificateFile = directory.resolve("server.crt");
            Path keyFile = directory.resolve("server.key");
            writePem(certificateFile, new JcaMiscPEMGenerator(certificate));
            Files.createFile(keyFile, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            writePem(keyFile, new JcaPKCS8Generator(keys.getPrivate(), null));
            return new SelfSignedCertificate(certificateFile, keyFile, certificate);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot generate a self-signed certificate", e);
        }
    }

    private static void writePem(Path file, PemObjectGenerator object) throws IOException {
        try (Writer out = Files.newBufferedWriter(file); JcaPEMWriter pem = new JcaPEMWriter(out)) {
            pem.writeObject(object);
        }
    }
}
