package io.memogate.proxy.pg.message;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.pg.message.frontend.Bind;
import io.memogate.proxy.pg.message.frontend.BoundPortal;
import io.memogate.proxy.pg.message.frontend.CancelRequest;
import io.memogate.proxy.pg.message.frontend.Close;
import io.memogate.proxy.pg.message.frontend.CopyFail;
import io.memogate.proxy.pg.message.frontend.Describe;
import io.memogate.proxy.pg.message.frontend.Execute;
import io.memogate.proxy.pg.message.frontend.FrontendMessage;
import io.memogate.proxy.pg.message.frontend.Parse;
import io.memogate.proxy.pg.message.frontend.PasswordResponse;
import io.memogate.proxy.pg.message.frontend.Query;
import io.memogate.proxy.pg.message.frontend.SslRequest;
import io.memogate.proxy.pg.message.frontend.StartupMessage;
import io.memogate.proxy.pg.message.frontend.StartupPacket;
import io.memogate.proxy.pg.message.frontend.StatementOrPortal;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Golden bytes, as a client puts them on the wire, for each frontend message the proxy decodes. */
class FrontendMessagesTest {

    @Test
    void startupMessage() {
        String golden = "00000022"                   // length 34
                + "00030000"                         // protocol 3.0
                + "7573657200" + "616c69636500"      // "user" "alice"
                + "646174616261736500" + "6d61727400" // "database" "mart"
                + "00";                              // end of parameters
        StartupPacket packet = StartupPacket.decode(wrap(golden));
        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("user", "alice");
        parameters.put("database", "mart");
        assertThat(packet).isEqualTo(new StartupMessage(StartupMessage.PROTOCOL_3_0, parameters));
        assertThat(((StartupMessage) packet).database()).isEqualTo("mart");
        assertThat(encoded(packet)).isEqualTo(golden);
    }

    @Test
    void startupMessageDatabaseDefaultsToTheUser() {
        StartupMessage startup = new StartupMessage(StartupMessage.PROTOCOL_3_0, Map.of("user", "bob"));
        assertThat(startup.database()).isEqualTo("bob");
    }

    @Test
    void sslRequest() {
        assertThat(StartupPacket.decode(wrap("00000008" + "04d2162f"))).isSameAs(SslRequest.INSTANCE);
    }

    @Test
    void cancelRequestOfProtocol30And32() {
        String v30 = "00000010" + "04d2162e" // length 16, code 80877102
                + "00003039"                   // process id 12345
                + "deadbeef";                  // 4-byte secret
        CancelRequest cancel = (CancelRequest) StartupPacket.decode(wrap(v30));
        assertThat(cancel.processId()).isEqualTo(12345);
        assertThat(cancel.secretKey().toHex()).isEqualTo("deadbeef");
        assertThat(encoded(cancel)).isEqualTo(v30);

        String v32 = "0000002c" + "04d2162e" + "00003039" + "11".repeat(32); // 32-byte secret (PostgreSQL 18)
        assertThat(((CancelRequest) StartupPacket.decode(wrap(v32))).secretKey().length()).isEqualTo(32);
    }

    /** PostgreSQL answers a bad layout with FATAL (ProcessStartupPacket): not a fault closed on in silence. */
    @Test
    void startupParametersNotEndingInTheTerminatorAreMalformedInPostgresqlsWords() {
        String unterminated = "0000000d" + "00030000" + "7573657200";                   // "user", no value
        String trailing = "00000014" + "00030000" + "7573657200" + "616c00" + "00" + "61"; // user al, then 'a'
        for (String packet : List.of(unterminated, trailing)) {
            assertThatThrownBy(() -> StartupPacket.decode(wrap(packet)))
                    .isInstanceOf(MalformedMessageException.class)
                    .isNotInstanceOf(UnansweredPacketException.class)
                    .hasMessage("invalid startup packet layout: expected terminator as last byte");
        }
    }

    /** Faults PostgreSQL logs and closes on without a word, in its words. */
    @Test
    void cancelRequestsOfTheWrongLengthAreLeftUnanswered() {
        assertThatThrownBy(() -> StartupPacket.decode(wrap("00000008" + "04d2162e")))   // the code, no pid
                .isInstanceOf(UnansweredPacketException.class).hasMessage("invalid length of query cancel packet");
        assertThatThrownBy(() -> StartupPacket.decode(wrap("0000000c" + "04d2162e" + "00003039"))) // no secret
                .isInstanceOf(UnansweredPacketException.class).hasMessage("invalid length of query cancel key");
        String tooLong = "%08x".formatted(12 + 257) + "04d2162e" + "00003039" + "11".repeat(257);
        assertThatThrownBy(() -> StartupPacket.decode(wrap(tooLong)))
                .isInstanceOf(UnansweredPacketException.class).hasMessage("invalid length of query cancel key");
    }

    @Test
    void query() {
        String golden = "51" + "0000000d" + "73656c6563742031" + "00"; // 'Q', length 13, "select 1", NUL
        assertThat(Query.decode(wrap(golden))).isEqualTo(new Query("select 1"));
        assertThat(encoded(new Query("select 1"))).isEqualTo(golden);
    }

    /** The text read in place, as decode reads it: from a frame that starts inside its buffer, and in UTF-8. */
    @Test
    void aQuerysTextIsReadInPlace() {
        ByteBuf behind = Unpooled.buffer().writeBytes(new byte[] {'Z', 0, 0, 0, 5, 'I'});
        new Query("select 'é'").encode(behind);
        behind.skipBytes(6);
        assertThat(Query.sql(behind)).isEqualTo("select 'é'");
        assertThat(behind.readerIndex()).isEqualTo(6);
        String unterminated = "51" + "0000000c" + "73656c6563742031"; // 'Q', length 12, "select 1", no NUL
        assertThatThrownBy(() -> Query.sql(wrap(unterminated))).isInstanceOf(MalformedMessageException.class)
                .hasMessage("string is not NUL-terminated");
        assertThatThrownBy(() -> Query.decode(wrap(unterminated))).hasMessage("string is not NUL-terminated");
    }

    @Test
    void parseWithParameterTypes() {
        String golden = "50" + "00000017"  // 'P', length 23
                + "733100"                 // statement "s1"
                + "73656c65637420243100"   // "select $1"
                + "0001" + "00000017";     // one parameter type: int4 (oid 23)
        Parse parse = Parse.decode(wrap(golden));
        assertThat(parse).isEqualTo(new Parse("s1", "select $1", List.of(23)));
        assertThat(encoded(parse)).isEqualTo(golden);
        Parse.check(wrap(golden)); // a whole one passes the check
    }

    @Test
    void parseWhoseTypeCountRunsPastTheEndIsMalformed() {
        String bad = "50" + "00000013" + "733100" + "73656c65637420243100" + "0002"; // says 2 types, carries none
        assertThatThrownBy(() -> Parse.decode(wrap(bad))).isInstanceOf(MalformedMessageException.class);
        assertThatThrownBy(() -> Parse.check(wrap(bad))).isInstanceOf(MalformedMessageException.class);
    }

    @Test
    void bindDecodesOnlyTheNames() {
        String golden = "42" + "00000014"   // 'B', length 20
                + "7000"                    // portal "p"
                + "733100"                  // statement "s1"
                + "0000"                    // no parameter format codes
                + "0001" + "00000001" + "31" // one parameter: length 1, "1"
                + "0000";                   // no result format codes
        assertThat(Bind.decode(wrap(golden))).isEqualTo(new Bind("p", "s1"));
    }

    /** The name the Bind before named is returned as it is, not made again; any other is decoded as decode does. */
    @Test
    void aBindsStatementNameIsTheOneBeforeWhenItNamesItAgain() {
        String golden = "42" + "00000014" + "7000" + "733100" + "0000" + "0001" + "00000001" + "31" + "0000";
        String previous = new String("s1".toCharArray());

        assertThat(Bind.statementName(wrap(golden), previous)).isSameAs(previous);
        assertThat(Bind.statementName(wrap(golden), "s2")).isEqualTo("s1");
        assertThat(Bind.statementName(wrap(golden), "s")).isEqualTo("s1");
        assertThat(Bind.statementName(wrap(golden), "")).isEqualTo("s1");
        ByteBuf accented = Unpooled.buffer().writeByte('B').writeInt(12).writeByte(0)
                .writeBytes("é1".getBytes(StandardCharsets.UTF_8)).writeByte(0).writeShort(0).writeShort(0);
        assertThat(Bind.statementName(accented, "\u00e91")).isEqualTo("é1");
        assertThat(Bind.statementName(accented.resetReaderIndex(), "é1")).isEqualTo("é1");
        ByteBuf unnamed = Unpooled.buffer().writeByte('B').writeInt(10).writeByte(0).writeByte(0).writeShort(0);
        assertThat(Bind.statementName(unnamed, "s1")).isEmpty();
    }

    /**
     * The head of a Bind relayed in parts holds at least its first 64 KiB and otherwise whatever the reads
     * brought: names that end past 64 KiB are refused whatever more arrived, so TCP's split decides nothing.
     */
    @Test
    void aBindsNamesMustEndWithinItsFirst64KiB() {
        for (int more : new int[] {0, 10_000}) { // bytes after the first 64 KiB that came with the head
            ByteBuf head = Unpooled.buffer();
            head.writeByte('B').writeInt(200_000);                    // declares 200,000 bytes of message
            head.writeBytes("p".repeat(70_000).getBytes(StandardCharsets.US_ASCII)).writeByte(0);
            head.writeByte('s').writeByte(0);
            head.writerIndex(64 * 1024 + more);
            assertThatThrownBy(() -> Bind.decode(head)).as("%d bytes more", more)
                    .isInstanceOf(MalformedMessageException.class)
                    .hasMessage("a Bind's portal and statement names must end within its first 65536 bytes");
            assertThatThrownBy(() -> Bind.check(head)).isInstanceOf(MalformedMessageException.class);
            assertThatThrownBy(() -> Bind.statementName(head, "s"))
                    .hasMessage("a Bind's portal and statement names must end within its first 65536 bytes");
        }
        ByteBuf fits = Unpooled.buffer().writeByte('B').writeInt(200_000).writeByte('p').writeByte(0)
                .writeBytes("s".repeat(60_000).getBytes(StandardCharsets.US_ASCII)).writeByte(0);
        fits.writerIndex(64 * 1024);
        assertThat(Bind.decode(fits).statementName()).hasSize(60_000);
    }

    @Test
    void closeStatement() {
        String golden = "43" + "00000008" + "53" + "733100"; // 'C', length 8, 'S'tatement, "s1"
        assertThat(Close.decode(wrap(golden))).isEqualTo(new Close(StatementOrPortal.STATEMENT, "s1"));
        assertThat(encoded(new Close(StatementOrPortal.STATEMENT, "s1"))).isEqualTo(golden);
    }

    @Test
    void boundPortalCountsTheValuesAndReadsTheResultFormats() {
        String golden = "42" + "0000001f"      // 'B', length 31
                + "7000"                        // portal "p"
                + "733100"                      // statement "s1"
                + "0001" + "0000"               // one parameter format code: text
                + "0002"                        // two parameters:
                + "00000002" + "3432"           //   length 2, "42"
                + "ffffffff"                    //   NULL, no bytes
                + "0002" + "0001" + "0000";     // two result format codes: binary, text
        assertThat(BoundPortal.decode(wrap(golden)))
                .isEqualTo(new BoundPortal("p", "s1", 2, List.of((short) 1, (short) 0)));
    }

    @Test
    void boundPortalWhoseValueRunsPastTheEndIsMalformed() {
        String golden = "42" + "0000000e"      // 'B', length 14
                + "00" + "00"                   // unnamed portal and statement
                + "0000"                        // no parameter format codes
                + "0001" + "00000010";          // one parameter of 16 bytes, none of them sent
        assertThatThrownBy(() -> BoundPortal.decode(wrap(golden))).isInstanceOf(MalformedMessageException.class)
                .hasMessageContaining("before its last field");
    }

    @Test
    void describePortal() {
        String golden = "44" + "00000008" + "50" + "703100"; // 'D', length 8, 'P'ortal, "p1"
        assertThat(Describe.decode(wrap(golden))).isEqualTo(new Describe(StatementOrPortal.PORTAL, "p1"));
        assertThat(encoded(new Describe(StatementOrPortal.PORTAL, "p1"))).isEqualTo(golden);
    }

    @Test
    void describeOfNeitherStatementNorPortalIsMalformed() {
        assertThatThrownBy(() -> Describe.decode(wrap("44" + "00000006" + "58" + "00"))) // 'X', ""
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("'S' or 'P', was 'X'");
    }

    @Test
    void execute() {
        String golden = "45" + "0000000b"      // 'E', length 11
                + "703100"                      // portal "p1"
                + "00000064";                   // at most 100 rows
        assertThat(Execute.decode(wrap(golden))).isEqualTo(new Execute("p1", 100));
        assertThat(encoded(new Execute("p1", 100))).isEqualTo(golden);
    }

    @Test
    void parseCutBeforeItsParameterCountIsMalformed() {
        String golden = "50" + "00000008" + "00" + "3b00" + "00"; // 'P', length 8, "", ";", one byte of the count
        assertThatThrownBy(() -> Parse.decode(wrap(golden))).isInstanceOf(MalformedMessageException.class);
    }

    /**
     * A client's message cut short anywhere (its length word saying so) is either still a valid message or a
     * malformed one, answered 08P01; never another exception, which a session would report as an internal
     * error. Each message is written whole as a client sends it, then cut at every byte.
     */
    @Test
    void everyMessageCutShortAnywhereIsValidOrMalformed() {
        Map<String, CutMessages.Decoder> decoders = new LinkedHashMap<>();
        decoders.put("Query", Query::decode);
        decoders.put("Query.check", Query::check);
        decoders.put("Parse", Parse::decode);
        decoders.put("Parse.check", Parse::check);
        decoders.put("Bind", Bind::decode);
        decoders.put("Bind.check", Bind::check);
        decoders.put("BoundPortal", BoundPortal::decode);
        decoders.put("Describe", Describe::decode);
        decoders.put("Execute", Execute::decode);
        decoders.put("Close", Close::decode);
        decoders.put("CopyFail", CopyFail::decode);
        decoders.put("Password", PasswordResponse.Password::decode);
        decoders.put("SaslInitial", PasswordResponse.SaslInitial::decode);
        decoders.put("SaslResponse", PasswordResponse.SaslResponse::decode);
        String query = "51" + "73656c6563742031" + "00";                  // 'Q', "select 1"
        String bind = "42" + "7000" + "733100"                             // 'B', portal "p", statement "s1"
                + "0001" + "0000"                                          // one parameter format: text
                + "0002" + "00000002" + "3432" + "ffffffff"                // two values: "42", NULL
                + "0002" + "0001" + "0000";                                // two result formats
        String parse = "50" + "733100" + "73656c656374202431" + "00"      // 'P', "s1", "select $1"
                + "0001" + "00000017";                                     // one parameter type: int4
        Map<String, String> whole = Map.ofEntries(                         // the type, then the body
                Map.entry("Query", query),
                Map.entry("Query.check", query),
                Map.entry("Parse", parse),
                Map.entry("Parse.check", parse),
                Map.entry("Bind", bind),
                Map.entry("Bind.check", bind),
                Map.entry("BoundPortal", bind),
                Map.entry("Describe", "44" + "50" + "703100"),             // 'P'ortal "p1"
                Map.entry("Execute", "45" + "703100" + "00000064"),        // "p1", 100 rows
                Map.entry("Close", "43" + "53" + "733100"),                // 'S'tatement "s1"
                Map.entry("CopyFail", "66" + "6f6f707300"),                // "oops"
                Map.entry("Password", "70" + "7365637200"),                // "secr"
                Map.entry("SaslInitial", "70" + "534352414d2d5348412d32353600" // "SCRAM-SHA-256"
                        + "00000005" + "6e2c2c6e3d"),                      // 5 bytes: "n,,n="
                Map.entry("SaslResponse", "70" + "632c723d"));             // "c,r="
        List<String> failures = new ArrayList<>();
        decoders.forEach((name, decoder) -> failures.addAll(CutMessages.typedFailures(name, whole.get(name), decoder)));
        failures.addAll(CutMessages.untypedFailures("StartupMessage", "00030000" // protocol 3.0
                + "7573657200" + "616c69636500" + "00", StartupPacket::decode));    // user alice
        failures.addAll(CutMessages.untypedFailures("CancelRequest", "04d2162e"  // the cancel code
                + "00003039" + "deadbeef", StartupPacket::decode));                // pid 12345, its key
        assertThat(failures).isEmpty();
    }

    static ByteBuf wrap(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex));
    }

    static String encoded(FrontendMessage message) {
        ByteBuf out = Unpooled.buffer();
        message.encode(out);
        return ByteBufUtil.hexDump(out);
    }
}
