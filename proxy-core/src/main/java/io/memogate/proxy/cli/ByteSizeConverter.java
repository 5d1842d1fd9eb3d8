package io.memogate.proxy.cli;

import io.memogate.proxy.config.ByteSize;
import picocli.CommandLine;

/** A size option in bytes, spelt as the configuration file spells sizes: 6GiB, 1024MB, 512MiB. */
public final class ByteSizeConverter implements CommandLine.ITypeConverter<Long> {

    @Override
    public Long convert(String value) {
        return ByteSize.parse(value).bytes();
    }
}
