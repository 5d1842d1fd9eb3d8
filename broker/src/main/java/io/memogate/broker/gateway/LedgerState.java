package io.memogate.broker.gateway;

/**
 * A snapshot of the byte budget (DESIGN.md, "sticky" compile memory).
 *
 * @param targetBytes the compile-memory target the ledger admits within
 * @param totalBytes sum over server connections of max(retained, in flight): what the server's backends
 *     hold or are about to hold
 * @param inFlightBytes estimates of the admitted statements not yet released, on open connections
 * @param connections server connections the ledger knows
 * @param budgetWaiting statements holding their tiers and waiting for the budget
 */
public record LedgerState(long targetBytes, long totalBytes, long inFlightBytes, int connections,
                          int budgetWaiting) {
}
