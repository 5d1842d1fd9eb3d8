package io.memogate.proxy.pg.message.backend;

import io.memogate.proxy.pg.message.PgWire;
import io.netty.buffer.ByteBuf;
import java.util.List;

/** ParameterDescription ('t'): a described statement's parameter types, as pg_type OIDs. */
public record ParameterDescription(List<Integer> typeOids) implements BackendMessage {

    public static final byte TYPE = 't';
    /** A statement without parameters, as every console command is. */
    public static final ParameterDescription NONE = new ParameterDescription(List.of());

    public ParameterDescription {
        typeOids = List.copyOf(typeOids);
    }

    @Override
    public void encode(ByteBuf out) {
        int lengthIndex = PgWire.beginMessage(out, TYPE);
        out.writeShort(typeOids.size());
        typeOids.forEach(out::writeInt);
        PgWire.endMessage(out, lengthIndex);
    }
}
