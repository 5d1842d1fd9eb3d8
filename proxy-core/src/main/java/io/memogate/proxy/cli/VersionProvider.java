package io.memogate.proxy.cli;

import picocli.CommandLine;

/** The version from the jar's manifest (set by the build), or "development" when run from classes. */
final class VersionProvider implements CommandLine.IVersionProvider {

    @Override
    public String[] getVersion() {
        String version = MemogateCommand.class.getPackage().getImplementationVersion();
        return new String[] {"memogate " + (version != null ? version : "development")};
    }
}
