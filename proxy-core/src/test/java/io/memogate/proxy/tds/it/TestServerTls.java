package io.memogate.proxy.tds.it;

import io.memogate.proxy.postgres.embedded.SelfSignedCertificate;
import io.netty.buffer.ByteBufAllocator;
import io.netty.handler.ssl.ApplicationProtocolConfig;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import io.netty.handler.ssl.SslProvider;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.ByteBuffer;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.SSLEngineResult;
import javax.net.ssl.SSLException;

/**
 * The server side of TDS's TLS for the test TDS server, over its blocking streams: an {@link SSLEngine} whose
 * handshake runs inside PRELOGIN packets (TDS 7.x, [MS-TDS] 3.3.5.1) or first on TCP (TDS 8.0), then streams of
 * plaintext over TLS records on TCP. Test scope only.
 */
final class TestServerTls {

    /** The ALPN protocol of TDS 8.0. */
    static final String TDS8 = "tds/8.0";

    private final SslContext inPrelogin;
    private final SslContext strict;

    TestServerTls(SelfSignedCertificate certificate) throws SSLException {
        this.inPrelogin = SslContextBuilder.forServer(certificate.certificateFile().toFile(),
                certificate.keyFile().toFile()).sslProvider(SslProvider.JDK).protocols("TLSv1.2").build();
        this.strict = SslContextBuilder.forServer(certificate.certificateFile().toFile(),
                certificate.keyFile().toFile()).sslProvider(SslProvider.JDK)
                .applicationProtocolConfig(new ApplicationProtocolConfig(ApplicationProtocolConfig.Protocol.ALPN,
                        ApplicationProtocolConfig.SelectorFailureBehavior.NO_ADVERTISE,
                        ApplicationProtocolConfig.SelectedListenerFailureBehavior.ACCEPT, TDS8))
                .build();
    }

    /** A TLS connection as the server, its handshake in PRELOGIN packets or ({@code strict}) straight on TCP. */
    Connection accept(InputStream in, OutputStream out, boolean strict) throws IOException {
        SSLEngine engine = (strict ? this.strict : inPrelogin).newEngine(ByteBufAllocator.DEFAULT);
        Connection connection = new Connection(engine, in, out, !strict);
        connection.handshake();
        return connection;
    }

    /** One TLS connection: plaintext {@link #in()} and {@link #out()} over the raw streams. */
    static final class Connection {
        private final SSLEngine engine;
        private final DataInputStream raw;
        private final OutputStream rawOut;
        private boolean inPrelogin;
        /** The bytes left of the PRELOGIN packet being read during the handshake. */
        private int packetLeft;
        private ByteBuffer plain = ByteBuffer.allocate(0);

        private Connection(SSLEngine engine, InputStream in, OutputStream out, boolean inPrelogin) {
            this.engine = engine;
            this.raw = new DataInputStream(in);
            this.rawOut = out;
            this.inPrelogin = inPrelogin;
        }

        String protocol() {
            return engine.getSession().getProtocol();
        }

        String applicationProtocol() {
            return engine.getApplicationProtocol();
        }

        private void handshake() throws IOException {
            engine.beginHandshake();
            while (true) {
                switch (engine.getHandshakeStatus()) {
                    case NEED_WRAP -> send(ByteBuffer.allocate(0));
                    case NEED_UNWRAP, NEED_UNWRAP_AGAIN -> receive();
                    case NEED_TASK -> engine.getDelegatedTask().run();
                    case FINISHED, NOT_HANDSHAKING -> {
                        inPrelogin = false;
                        return;
                    }
                }
            }
        }

        /**
         * Wraps {@code data} into records and writes them. During the handshake, the records the engine has to send
         * in a row (a flight: ServerHello to ServerHelloDone) go in one PRELOGIN message, as SQL Server sends them:
         * mssql-jdbc reads a flight as one message, and its assertions (on under tests) fail on a flight cut into
         * messages.
         */
        private void send(ByteBuffer data) throws IOException {
            ByteArrayOutputStream flight = new ByteArrayOutputStream();
            do {
                ByteBuffer net = ByteBuffer.allocate(engine.getSession().getPacketBufferSize());
                SSLEngineResult result = engine.wrap(data, net);
                if (result.getStatus() != SSLEngineResult.Status.OK) {
                    throw new SSLException("wrap: " + result);
                }
                net.flip();
                if (!inPrelogin) {
                    rawOut.write(net.array(), 0, net.limit());
                    continue;
                }
                flight.write(net.array(), 0, net.limit());
                if (engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_TASK) {
                    engine.getDelegatedTask().run();
                }
            } while (data.hasRemaining()
                    || inPrelogin && engine.getHandshakeStatus() == SSLEngineResult.HandshakeStatus.NEED_WRAP);
            if (flight.size() > 0) {
                TdsWire.write(rawOut, TdsWire.PRELOGIN, flight.toByteArray(), 4096, 0);
            }
            rawOut.flush();
        }

        /** Reads one TLS record and unwraps it; what it holds of plaintext is kept for {@link #in()}. */
        private void receive() throws IOException {
            byte[] header = new byte[5];
            readTls(header);
            int length = ((header[3] & 0xFF) << 8) | (header[4] & 0xFF);
            byte[] record = new byte[5 + length];
            System.arraycopy(header, 0, record, 0, 5);
            byte[] body = new byte[length];
            readTls(body);
            System.arraycopy(body, 0, record, 5, length);
            ByteBuffer into = ByteBuffer.allocate(engine.getSession().getApplicationBufferSize() + plain.remaining());
            into.put(plain);
            SSLEngineResult result = engine.unwrap(ByteBuffer.wrap(record), into);
            if (result.getStatus() == SSLEngineResult.Status.CLOSED) {
                throw new EOFException("the peer closed its TLS");
            }
            if (result.getStatus() != SSLEngineResult.Status.OK) {
                throw new SSLException("unwrap: " + result);
            }
            into.flip();
            plain = into;
        }

        /** TLS bytes: during the handshake, the data of PRELOGIN packets; after it, the stream itself. */
        private void readTls(byte[] into) throws IOException {
            int at = 0;
            while (at < into.length) {
                if (inPrelogin && packetLeft == 0) {
                    int type = raw.readUnsignedByte();
                    raw.readUnsignedByte();
                    int length = raw.readUnsignedShort();
                    raw.readInt();
                    if (type != TdsWire.PRELOGIN) {
                        throw new IOException("a packet of type " + type + " during the TLS handshake");
                    }
                    packetLeft = length - 8;
                    continue;
                }
                int chunk = inPrelogin ? Math.min(packetLeft, into.length - at) : into.length - at;
                raw.readFully(into, at, chunk);
                at += chunk;
                if (inPrelogin) {
                    packetLeft -= chunk;
                }
            }
        }

        InputStream in() {
            return new InputStream() {
                @Override
                public int read() throws IOException {
                    byte[] one = new byte[1];
                    return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
                }

                @Override
                public int read(byte[] into, int offset, int length) throws IOException {
                    if (length == 0) {
                        return 0;
                    }
                    while (!plain.hasRemaining()) {
                        try {
                            receive();
                        } catch (EOFException closed) {
                            return -1;
                        }
                    }
                    int chunk = Math.min(length, plain.remaining());
                    plain.get(into, offset, chunk);
                    return chunk;
                }
            };
        }

        OutputStream out() {
            return new OutputStream() {
                @Override
                public void write(int b) throws IOException {
                    write(new byte[] {(byte) b}, 0, 1);
                }

                @Override
                public void write(byte[] data, int offset, int length) throws IOException {
                    send(ByteBuffer.wrap(data, offset, length));
                }
            };
        }
    }
}
