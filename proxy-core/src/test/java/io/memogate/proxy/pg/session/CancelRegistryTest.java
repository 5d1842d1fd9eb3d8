package io.memogate.proxy.pg.session;

import static org.assertj.core.api.Assertions.assertThat;

import io.memogate.proxy.pg.message.SecretKey;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class CancelRegistryTest {

    private final CancelRegistry registry = new CancelRegistry();

    @Test
    void aKeyNamesTheServerProcessAndLeadsToItsOwnSessionOnly() {
        CancelRegistry.Cancellable first = () -> {};
        CancelRegistry.Cancellable second = () -> {};
        BackendKeyData firstKey = registry.register(first, 4711, 4);
        BackendKeyData secondKey = registry.register(second, 4712, 4);

        assertThat(firstKey.processId()).as("the server process's id, as the client would see it").isEqualTo(4711);
        assertThat(registry.lookup(4711, firstKey.secretKey())).containsSame(first);
        assertThat(registry.lookup(4712, secondKey.secretKey())).containsSame(second);
        assertThat(registry.lookup(4711, secondKey.secretKey())).as("wrong secret").isEmpty();
    }

    /** Servers of two backends may each have a process 4711; a session recycled away from 4711 keeps it too. */
    @Test
    void sessionsGivenTheSameProcessIdAreToldApartByTheirSecrets() {
        CancelRegistry.Cancellable first = () -> {};
        CancelRegistry.Cancellable second = () -> {};
        BackendKeyData firstKey = registry.register(first, 4711, 4);
        BackendKeyData secondKey = registry.register(second, 4711, 4);

        assertThat(secondKey.secretKey()).isNotEqualTo(firstKey.secretKey());
        assertThat(registry.lookup(4711, firstKey.secretKey())).containsSame(first);
        assertThat(registry.lookup(4711, secondKey.secretKey())).containsSame(second);
        registry.unregister(firstKey);
        assertThat(registry.lookup(4711, firstKey.secretKey())).isEmpty();
        assertThat(registry.lookup(4711, secondKey.secretKey())).as("the other session's key stays").containsSame(second);
    }

    @Test
    void secretsHaveTheServersLengthAndAreUniquePerProcessId() {
        Set<String> secrets = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            BackendKeyData key = registry.register(() -> {}, 7, i % 2 == 0 ? 4 : 32);
            assertThat(key.secretKey().length()).isEqualTo(i % 2 == 0 ? 4 : 32);
            assertThat(secrets.add(key.secretKey().toHex())).isTrue();
        }
        assertThat(registry.size()).isEqualTo(1000);
    }

    @Test
    void anUnregisteredKeyCancelsNothing() {
        BackendKeyData key = registry.register(() -> {}, 4711, 4);
        registry.unregister(key);
        assertThat(registry.lookup(key.processId(), key.secretKey())).isEmpty();
        assertThat(registry.lookup(12345, SecretKey.ofInt(1))).isEmpty();
        assertThat(registry.size()).isZero();
    }
}
