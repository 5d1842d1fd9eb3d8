package io.memogate.proxy.tds.message;

import java.util.List;

/**
 * The requests of one RPC message, in order ({@link RpcRequest#readAll}); {@code allRead} false when a parameter
 * of a type not stepped over hid the rest of the message (those requests run unestimated).
 */
public record RpcBatch(List<RpcCall> calls, boolean allRead) {

    public RpcBatch {
        calls = List.copyOf(calls);
    }
}
