package io.memogate.proxy.tds.tls;

import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_NOT_SUP;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_OFF;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_ON;
import static io.memogate.proxy.tds.message.Prelogin.ENCRYPT_REQ;
import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.config.TlsMode;
import org.junit.jupiter.api.Test;

/** PRELOGIN's ENCRYPTION as [MS-TDS] 2.2.6.5 settles it, and what the proxy asks and answers on each leg. */
class EncryptionMatrixTest {

    @Test
    void bothOffEncryptsTheLoginOnlyAndNotSupportedOnEitherSideEncryptsNothing() {
        assertThat(EncryptionMatrix.agreed(ENCRYPT_OFF, ENCRYPT_OFF)).isEqualTo(LegProtection.LOGIN_ONLY);
        assertThat(EncryptionMatrix.agreed(ENCRYPT_ON, ENCRYPT_ON)).isEqualTo(LegProtection.FULL);
        assertThat(EncryptionMatrix.agreed(ENCRYPT_OFF, ENCRYPT_REQ)).isEqualTo(LegProtection.FULL);
        assertThat(EncryptionMatrix.agreed(ENCRYPT_OFF, ENCRYPT_NOT_SUP)).isEqualTo(LegProtection.NONE);
        assertThat(EncryptionMatrix.agreed(ENCRYPT_NOT_SUP, ENCRYPT_REQ)).isEqualTo(LegProtection.NONE);
    }

    @Test
    void theServerIsAskedWhatTheBackendsModeAndUnderPreferTheClientWants() {
        assertThat(EncryptionMatrix.request(TlsMode.DISABLE, true)).isEqualTo(ENCRYPT_NOT_SUP);
        assertThat(EncryptionMatrix.request(TlsMode.PREFER, false)).isEqualTo(ENCRYPT_OFF);
        assertThat(EncryptionMatrix.request(TlsMode.PREFER, true)).isEqualTo(ENCRYPT_ON);
        assertThat(EncryptionMatrix.request(TlsMode.REQUIRE, false)).isEqualTo(ENCRYPT_ON);
        assertThat(EncryptionMatrix.request(TlsMode.VERIFY_FULL, false)).isEqualTo(ENCRYPT_ON);
    }

    @Test
    void theClientIsAnsweredFromTheCertificateItsWishAndTheServersDemand() {
        assertThat(EncryptionMatrix.answer(false, ENCRYPT_ON, false)).as("no certificate").isEqualTo(ENCRYPT_NOT_SUP);
        assertThat(EncryptionMatrix.answer(true, ENCRYPT_NOT_SUP, true)).isEqualTo(ENCRYPT_NOT_SUP);
        assertThat(EncryptionMatrix.answer(true, ENCRYPT_OFF, false)).as("login only").isEqualTo(ENCRYPT_OFF);
        assertThat(EncryptionMatrix.answer(true, ENCRYPT_OFF, true)).as("a forcing server").isEqualTo(ENCRYPT_ON);
        assertThat(EncryptionMatrix.answer(true, ENCRYPT_REQ, false)).isEqualTo(ENCRYPT_ON);
    }

    @Test
    void aServerDemandsWhatItGivesBeyondWhatItWasAsked() {
        assertThat(EncryptionMatrix.serverDemands(ENCRYPT_ON, ENCRYPT_ON)).isFalse();
        assertThat(EncryptionMatrix.serverDemands(ENCRYPT_OFF, ENCRYPT_ON)).isTrue();
        assertThat(EncryptionMatrix.serverDemands(ENCRYPT_NOT_SUP, ENCRYPT_REQ)).isTrue();
        assertThat(EncryptionMatrix.serverDemands(ENCRYPT_OFF, ENCRYPT_OFF)).isFalse();
    }
}
