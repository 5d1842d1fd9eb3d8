package io.memogate.proxy.tds.session;

import io.memogate.proxy.session.ServerLegHandler;
import io.memogate.proxy.tds.codec.TdsPackets;
import io.memogate.proxy.tds.message.Login7;
import io.memogate.proxy.tds.message.MalformedPacketException;
import io.memogate.proxy.tds.message.PacketType;
import io.memogate.proxy.tds.message.Routing;
import io.memogate.proxy.tds.message.TdsError;
import io.memogate.proxy.tds.message.TdsErrors;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Following a Routing ENVCHANGE ([MS-TDS] 2.2.7.9): the server (an Azure SQL gateway, an availability group
 * listener with read-only routing) accepted the login and named another server to log in to. A client would close
 * its connection and log in there; through the proxy the client stays connected to the proxy, which does it for
 * the client: it drops the answer that routes (LOGINACK, ENVCHANGE, DONE), closes its connection to the first
 * server, connects to the routed host and port, sends the PRELOGIN it sent the first server and sets up TLS as the
 * backend's {@code tls} says (checking the routed server's name under verify-full), then the client's LOGIN7 with
 * the routed server's name in its ServerName (and the routed database, when an enhanced routing names one), as a
 * client does; the routed server's answer goes to the client.
 *
 * <p>Bounds: one routing is followed, as SQL Server's clients follow one (a second is a loop, refused); none when
 * the backend's {@code tds.followRouting} is false (refused, naming the routed server); and only a login made of its
 * LOGIN7 alone, without integrated authentication: an SSPI token (a Kerberos ticket for the first server) and
 * federated authentication that goes on after the LOGIN7 (FEDAUTHINFO, then the client's FEDAUTH token) cannot be
 * repeated without the client, while an access token inside the LOGIN7 is repeated as a client repeats it. Every
 * refusal is a fatal ERROR in answer to the client's login, never a bypass.
 *
 * <p>Steps ({@link Step}): CONNECTING (the routed server's connection being opened, and strict TLS on it), PRELOGIN
 * (its answer awaited), TLS (the handshake inside PRELOGIN packets); then the session is in LOGIN again.
 */
final class Rerouting {

    private static final Logger log = LoggerFactory.getLogger(Rerouting.class);
    /** How many routings one login follows: one, as mssql-jdbc and SqlClient do. */
    static final int MAX_ROUTINGS = 1;

    enum Step { CONNECTING, PRELOGIN, TLS }

    private final TdsSession session;
    /** The PRELOGIN the proxy sent the first server (the client's, rewritten); null when the client sent none. */
    private ByteBuf prelogin;
    /** The client's LOGIN7 (its data), kept until the login is over; null when there is none to repeat. */
    private ByteBuf login;
    /** The login went on past its LOGIN7 (SSPI, FEDAUTH): it cannot be repeated toward another server. */
    private boolean continued;
    private int followed;
    private Routing routing;
    private Step step;
    /** Where the routing came from: host:port of the server that routed. */
    private String routedFrom;

    Rerouting(TdsSession session) {
        this.session = session;
    }

    /** The PRELOGIN that went to the first server, as rewritten; a copy is kept to send a routed server. */
    void preloginSent(ByteBuf packet) {
        if (prelogin != null) {
            prelogin.release();
        }
        prelogin = packet.copy();
    }

    /**
     * The client's LOGIN7 data, owned here from now on: it is what a routed server is sent. One that asks for
     * integrated authentication cannot be: its SSPI token (a Kerberos ticket) is for the first server alone.
     */
    void loginSent(ByteBuf data) {
        if (login != null) {
            login.release();
        }
        login = data;
        continued |= Login7.integratedSecurity(data);
    }

    /** The client sent more for its login (SSPI, FEDAUTH). */
    void loginContinued() {
        continued = true;
    }

    /** The login is over: nothing is repeated any more. */
    void loggedIn() {
        release();
    }

    /** How SHOW CLIENTS names a routed session's server. */
    Optional<String> routedAddress() {
        return routing == null ? Optional.empty()
                : Optional.of(routing.address() + " (routed by " + routedFrom + ")");
    }

    /** The login answer routes to {@code to}: followed, or the client's login refused saying why. */
    void follow(Routing to) {
        String backend = session.services.backend().name();
        String from = routing == null ? session.services.backend().host() + ":" + session.services.backend().port()
                : routing.address();
        Optional<TdsError> refusal = !session.services.backend().tds().followRouting()
                ? Optional.of(TdsErrors.routingNotFollowed(backend, to))
                : followed >= MAX_ROUTINGS ? Optional.of(TdsErrors.routingLoop(backend, from, to))
                : login == null || continued ? Optional.of(TdsErrors.routingNotReplayable(backend, to))
                : Optional.empty();
        if (refusal.isPresent()) {
            log.warn("backend '{}' at {} routes the login of {} to '{}' ({}): not followed, {}", backend, from, session,
                    to.alternateServer(), to.address(), refusal.get().message());
            session.sendErrorAndClose(refusal.get());
            return;
        }
        followed++;
        routedFrom = from;
        routing = to;
        step = Step.CONNECTING;
        log.info("backend '{}' at {} routes the login of {} to '{}' ({}): following", backend, from, session,
                to.alternateServer(), to.address());
        session.dropServer();
        ChannelFuture connecting = session.services.connector().connect(session.client.eventLoop(), to.host(),
                to.port(), new ServerLegHandler(session), session.services.limits().connectTimeout());
        connecting.addListener(done -> {
            if (!done.isSuccess()) {
                connecting.channel().close();
                lost(String.valueOf(done.cause().getMessage()));
                return;
            }
            Channel opened = connecting.channel();
            if (session.ended()) {
                opened.close();
                return;
            }
            session.serverOpened(opened);
            session.tls.serverReplaced();
            session.tls.serverConnected(opened, to.host(), to.port(), this::sendPrelogin);
        });
    }

    /** The routed server's connection failed or closed before the login went to it. */
    void lost(String why) {
        log.warn("cannot log {} in to '{}' ({}), where backend '{}' routed it: {}", session, routing.alternateServer(),
                routing.address(), session.services.backend().name(), why);
        session.sendErrorAndClose(TdsErrors.routedServerUnreachable(session.services.backend().name(), routing, why));
    }

    private void sendPrelogin() {
        if (prelogin == null) {
            sendLogin();
            return;
        }
        step = Step.PRELOGIN;
        session.toServer(prelogin.retainedDuplicate());
        Channel server = session.serverChannel();
        server.flush();
        server.read();
    }

    /** A packet of the routed server's before the login went to it: its PRELOGIN answer. */
    void serverFrame(ByteBuf packet) {
        if (step != Step.PRELOGIN) {
            packet.release();
            return;
        }
        Optional<TdsError> refusal;
        try {
            refusal = session.tls.routedServerAnswered(packet);
        } catch (MalformedPacketException e) {
            packet.release();
            lost("its PRELOGIN answer is malformed: " + e.getMessage());
            return;
        }
        packet.release();
        if (refusal.isPresent()) {
            session.sendErrorAndClose(refusal.get());
            return;
        }
        step = Step.TLS;
        if (!session.tls.startServer(this::sendLogin, session::sendErrorAndClose)) {
            sendLogin();
        }
    }

    /** The client's LOGIN7, named for the routed server, then the session awaits its answer as it did the first. */
    private void sendLogin() {
        if (session.ended()) {
            return;
        }
        ByteBuf data = Login7.routedTo(login, routing.alternateServer(), routing.database(), session.client.alloc());
        session.toServer(TdsPackets.message(session.client.alloc(), PacketType.LOGIN7, data,
                TdsPackets.DEFAULT_PACKET_SIZE, 0));
        session.tls.loginRelayed();
        session.routedLoginSent();
    }

    /** Releases what was kept; the login is over or the session is closing. */
    void release() {
        if (prelogin != null) {
            prelogin.release();
            prelogin = null;
        }
        if (login != null) {
            login.release();
            login = null;
        }
    }
}
