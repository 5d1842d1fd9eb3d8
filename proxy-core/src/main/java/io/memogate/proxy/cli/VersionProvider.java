package io.memogate.proxy.cli;

import io.memogate.proxy.MemogateVersion;
import picocli.CommandLine;

/** The version from the jar's manifest (set by the build), or "development" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        return new String[] {MemogateVersion.text()};
    }
}
