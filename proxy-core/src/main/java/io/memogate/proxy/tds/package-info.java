/**
 * The TDS wing: SQL Server's Tabular Data Stream ([MS-TDS], TDS 7.4) on both legs of a session, built on the
 * protocol-neutral session core ({@link io.memogate.proxy.session}) as the PostgreSQL and MySQL wings are.
 *
 * <ul>
 * <li>{@code codec}: packets framed by their 8-byte header; a client's packets joined into whole messages up to
 *     the end-of-message bit, within limits.maxMessageBytes; the proxy's own messages cut to the packet size
 *     agreed;</li>
 * <li>{@code message}: what the proxy reads or writes itself: PRELOGIN's ENCRYPTION and MARS options, LOGIN7's
 *     names and packet size, the login answer's LOGINACK and ENVCHANGE, a SQLBatch's text, the ERROR and DONE
 *     tokens of its own answers;</li>
 * <li>{@code session}: a session's states (connect, PRELOGIN, LOGIN7 relayed as it is, requests), SQLBatch through
 *     admission, refusal with 8628, and the ATTENTION that withdraws a held batch.</li>
 * </ul>
 */
package io.memogate.proxy.tds;
