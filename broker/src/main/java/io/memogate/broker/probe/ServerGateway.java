package io.memogate.broker.probe;

import java.util.Objects;
import java.util.OptionalLong;

/**
 * One compile gate the server keeps itself, where it has any (SQL Server: a row of
 * {@code sys.dm_exec_query_optimizer_memory_gateways}, one per gateway and resource pool). Shown beside the
 * proxy's own gateways; the broker's policy does not read it.
 *
 * @param name           as the server names the gate (SQL Server: "Small Gateway", "Medium Gateway", "Big Gateway")
 * @param pool           the resource pool the gate belongs to (SQL Server: Resource Governor's pool_id, 2 for
 *                       the default pool); 0 where the server has no pools
 * @param maxCount       how many compiles the gate lets through at once
 * @param activeCount    how many hold it now
 * @param waiterCount    how many wait for it now
 * @param thresholdBytes the compile memory above which a compile must pass this gate; empty while the server
 *                       has not computed it (SQL Server shows -1)
 */
public record ServerGateway(String name, int pool, int maxCount, int activeCount, int waiterCount, OptionalLong thresholdBytes) {

    public ServerGateway {
        Objects.requireNonNull(name, "name");
        if (maxCount < 0 || activeCount < 0 || waiterCount < 0) {
            throw new IllegalArgumentException("gateway " + name + ": counts must be >= 0, were max " + maxCount
                    + ", active " + activeCount + ", waiting " + waiterCount);
        }
        Objects.requireNonNull(thresholdBytes, "thresholdBytes");
    }
}
