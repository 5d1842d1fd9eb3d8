/**
 * Compile admission: the three gateways of "Managing Query Compilation Memory Consumption to Improve DBMS
 * Throughput" (Baryshnikov et al., CIDR 2007) and a byte budget over the memory server connections hold.
 *
 * <p>{@link io.memogate.broker.gateway.Gateways} is the entry point, kept in one process by
 * {@link io.memogate.broker.gateway.LocalGateways}; a statement's admission is a
 * {@link io.memogate.broker.gateway.Ticket}. Nothing here blocks a thread or knows a wire protocol; the
 * proxy calls acquire at its admission points and release at its release points (DESIGN.md).
 */
package io.memogate.broker.gateway;
