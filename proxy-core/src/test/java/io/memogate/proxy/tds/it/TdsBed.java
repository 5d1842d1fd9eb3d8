package io.memogate.proxy.tds.it;

import io.memogate.proxy.testing.ScriptedHook;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * For each test, a {@link TdsTarget} and the proxy in front of it, admitting by a {@link ScriptedHook}; registered
 * with {@code @RegisterExtension}, both closed after the test.
 */
final class TdsBed implements BeforeEachCallback, AfterEachCallback {

    final ScriptedHook hook = new ScriptedHook();
    private TdsTarget target;
    private TdsProxy proxy;

    @Override
    public void beforeEach(ExtensionContext context) throws Exception {
        target = TdsTarget.open();
        proxy = TdsProxy.to(target, hook);
    }

    @Override
    public void afterEach(ExtensionContext context) throws Exception {
        proxy.close();
        target.close();
    }

    TdsTarget target() {
        return target;
    }

    TdsProxy proxy() {
        return proxy;
    }
}
