package io.memogate.proxy.admission;

import io.memogate.estimator.Catalog;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

/** {@link ServerCatalogs#NONE}: nothing is read, every statement is estimated from its SQL alone. */
final class NoCatalogs implements ServerCatalogs {

    @Override
    public boolean reads() {
        return false;
    }

    @Override
    public Catalog of(String database) {
        return Catalog.NONE;
    }

    @Override
    public Optional<CompletableFuture<Catalog>> firstRead(String database, Duration wait) {
        return Optional.empty();
    }

    @Override
    public LoginSettings loginSettingsOf(String database) {
        return LoginSettings.NONE;
    }

    @Override
    public CompletableFuture<Catalog> whenRead(String database) {
        return CompletableFuture.completedFuture(Catalog.NONE);
    }

    @Override
    public CompletableFuture<Void> refresh(String database) {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public CompletableFuture<Void> refreshAll() {
        return CompletableFuture.completedFuture(null);
    }

    @Override
    public List<CatalogState> states() {
        return List.of();
    }

    @Override
    public void close() {
    }
}
