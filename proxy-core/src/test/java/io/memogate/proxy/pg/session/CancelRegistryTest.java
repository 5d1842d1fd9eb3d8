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
    void aKeyLeadsToItsOwnSessionOnly() {
        CancelRegistry.Cancellable first = () -> {};
        CancelRegistry.Cancellable second = () -> {};
        BackendKeyData firstKey = registry.register(first, 4);
        BackendKeyData secondKey = registry.register(second, 4);

        assertThat(registry.lookup(firstKey.processId(), firstKey.secretKey())).containsSame(first);
        assertThat(registry.lookup(secondKey.processId(), secondKey.secretKey())).containsSame(second);
        assertThat(registry.lookup(firstKey.processId(), secondKey.secretKey())).as("wrong secret").isEmpty();
    }

    @Test
    void secretsHaveTheServersLengthAndKeysAreUnique() {
        Set<Integer> processIds = new HashSet<>();
        for (int i = 0; i < 1000; i++) {
            BackendKeyData key = registry.register(() -> {}, i % 2 == 0 ? 4 : 32);
            assertThat(key.secretKey().length()).isEqualTo(i % 2 == 0 ? 4 : 32);
            assertThat(processIds.add(key.processId())).isTrue();
        }
        assertThat(registry.size()).isEqualTo(1000);
    }

    @Test
    void anUnregisteredKeyCancelsNothing() {
        BackendKeyData key = registry.register(() -> {}, 4);
        registry.unregister(key);
        assertThat(registry.lookup(key.processId(), key.secretKey())).isEmpty();
        assertThat(registry.lookup(12345, SecretKey.ofInt(1))).isEmpty();
        assertThat(registry.size()).isZero();
    }
}
