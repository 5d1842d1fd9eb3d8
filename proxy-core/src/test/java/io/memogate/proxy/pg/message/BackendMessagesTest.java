package io.memogate.proxy.pg.message;

import static io.memogate.proxy.pg.message.FrontendMessagesTest.wrap;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.memogate.proxy.pg.message.backend.Authentication;
import io.memogate.proxy.pg.message.backend.BackendKeyData;
import io.memogate.proxy.pg.message.backend.BackendMessage;
import io.memogate.proxy.pg.message.backend.BodilessMessage;
import io.memogate.proxy.pg.message.backend.CommandComplete;
import io.memogate.proxy.pg.message.backend.DataRow;
import io.memogate.proxy.pg.message.backend.ErrorResponse;
import io.memogate.proxy.pg.message.backend.NotificationResponse;
import io.memogate.proxy.pg.message.backend.ParameterDescription;
import io.memogate.proxy.pg.message.backend.ParameterStatus;
import io.memogate.proxy.pg.message.backend.PgErrors;
import io.memogate.proxy.pg.message.backend.ReadyForQuery;
import io.memogate.proxy.pg.message.backend.ReadyForQuery.TransactionStatus;
import io.memogate.proxy.pg.message.backend.RowDescription;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import io.netty.buffer.Unpooled;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Golden bytes, as a server puts them on the wire, for each backend message the proxy decodes. */
class BackendMessagesTest {

    @Test
    void readyForQuery() {
        assertThat(ReadyForQuery.decode(wrap("5a" + "00000005" + "54"))) // 'Z', length 5, 'T'
                .isEqualTo(new ReadyForQuery(TransactionStatus.IN_TRANSACTION));
        assertThat(encoded(new ReadyForQuery(TransactionStatus.FAILED))).isEqualTo("5a0000000545");
    }

    @Test
    void notificationResponseNamesAnotherProcessWithItsStringsByteForByte() {
        String channel = "6b616e616c00";        // "kanal"
        String payload = "e46e646572756e6700";  // "änderung" in LATIN1: not UTF-8, kept as it is
        ByteBuf golden = wrap("41" + "00000017" // 'A', length 23
                + "00001267"                    // process 4711
                + channel + payload);
        ByteBuf withOffset = Unpooled.buffer().writeBytes(wrap("ffff")).writeBytes(golden);
        assertThat(NotificationResponse.processId(withOffset, 2)).isEqualTo(4711);
        ByteBuf rewritten = NotificationResponse.withProcessId(withOffset, 2, 23, 815, ByteBufAllocator.DEFAULT);
        assertThat(ByteBufUtil.hexDump(rewritten)).isEqualTo("41" + "00000017" + "0000032f" + channel + payload);
        rewritten.release();
        withOffset.release();
    }

    @Test
    void commandComplete() {
        String golden = "43" + "0000000d" + "53454c454354203300"; // 'C', length 13, "SELECT 3"
        assertThat(CommandComplete.decode(wrap(golden))).isEqualTo(new CommandComplete("SELECT 3"));
        assertThat(encoded(new CommandComplete("SELECT 3"))).isEqualTo(golden);
    }

    @Test
    void rowDescriptionOfTextColumns() {
        String golden = "54" + "00000035"              // 'T', length 53
                + "0002"                               // two fields
                + "7469657200"                         // "tier"
                + "00000000" + "0000"                  // no table, no column number
                + "00000019" + "ffff" + "ffffffff"     // type text (25), variable length, no modifier
                + "0000"                               // text format
                + "6c696d697400"                       // "limit", then the same description
                + "00000000" + "0000" + "00000019" + "ffff" + "ffffffff" + "0000";
        RowDescription description = RowDescription.ofText(List.of("tier", "limit"));
        assertThat(encoded(description)).isEqualTo(golden);
        assertThat(RowDescription.decode(wrap(golden))).isEqualTo(description);
    }

    @Test
    void rowDescriptionOfTextColumnsInTheFormatsABindAskedFor() {
        String golden = "54" + "00000035"              // 'T', length 53
                + "0002"                               // two fields
                + "7469657200"                         // "tier"
                + "00000000" + "0000" + "00000019" + "ffff" + "ffffffff"
                + "0001"                               // binary format (text's binary form is its text)
                + "6c696d697400"                       // "limit"
                + "00000000" + "0000" + "00000019" + "ffff" + "ffffffff"
                + "0000";                              // text format
        assertThat(encoded(RowDescription.ofText(List.of("tier", "limit"), List.of((short) 1, (short) 0))))
                .isEqualTo(golden);
    }

    @Test
    void parameterDescriptionOfAStatementWithoutParameters() {
        assertThat(encoded(ParameterDescription.NONE)).isEqualTo("74" + "00000006" + "0000"); // 't', length 6, none
    }

    @Test
    void theExtendedProtocolsBodilessAnswers() {
        assertThat(encoded(BodilessMessage.PARSE_COMPLETE)).isEqualTo("31" + "00000004");   // '1', length 4
        assertThat(encoded(BodilessMessage.CLOSE_COMPLETE)).isEqualTo("33" + "00000004");   // '3'
        assertThat(encoded(BodilessMessage.NO_DATA)).isEqualTo("6e" + "00000004");          // 'n'
        assertThat(encoded(BodilessMessage.PORTAL_SUSPENDED)).isEqualTo("73" + "00000004"); // 's'
    }

    @Test
    void dataRowWithANullAndMultibyteText() {
        String golden = "44" + "00000019"              // 'D', length 25
                + "0003"                               // three columns
                + "00000005" + "736d616c6c"            // "small"
                + "ffffffff"                           // NULL
                + "00000002" + "c3a9";                 // "é", two bytes in UTF-8
        DataRow row = new DataRow(Arrays.asList("small", null, "é"));
        assertThat(encoded(row)).isEqualTo(golden);
        assertThat(DataRow.decode(wrap(golden))).isEqualTo(row);
    }

    @Test
    void backendKeyData() {
        String golden = "4b" + "0000000c" // 'K', length 12
                + "000004d2"              // process id 1234
                + "01020304";             // secret
        BackendKeyData key = BackendKeyData.decode(wrap(golden));
        assertThat(key.processId()).isEqualTo(1234);
        assertThat(key.secretKey()).isEqualTo(SecretKey.ofInt(0x01020304));
        assertThat(encoded(key)).isEqualTo(golden);
    }

    @Test
    void saslMechanismsWithoutChannelBinding() {
        String golden = "52" + "0000002a"                       // 'R', length 42
                + "0000000a"                                      // 10: AuthenticationSASL
                + "534352414d2d5348412d3235362d504c555300"        // "SCRAM-SHA-256-PLUS"
                + "534352414d2d5348412d32353600"                  // "SCRAM-SHA-256"
                + "00";                                           // end of list
        Authentication.Sasl sasl = (Authentication.Sasl) Authentication.decode(wrap(golden));
        assertThat(sasl.mechanisms()).containsExactly("SCRAM-SHA-256-PLUS", "SCRAM-SHA-256");
        assertThat(sasl.offersChannelBinding()).isTrue();
        assertThat(encoded(sasl)).isEqualTo(golden);
        assertThat(encoded(sasl.withoutChannelBinding()))
                .isEqualTo("52" + "00000017" + "0000000a" + "534352414d2d5348412d32353600" + "00");
        assertThat(sasl.withoutChannelBinding().mechanisms()).isEqualTo(List.of("SCRAM-SHA-256"));
    }

    @Test
    void passwordRequestsAreDecodedAndGssStaysOpaque() {
        // 'R', length 12, 5 = AuthenticationMD5Password, 4-byte salt
        String md5 = "52" + "0000000c" + "00000005" + "a1b2c3d4";
        Authentication.Md5Password request = (Authentication.Md5Password) Authentication.decode(wrap(md5));
        assertThat(request.salt()).containsExactly(0xa1, 0xb2, 0xc3, 0xd4);
        assertThat(encoded(request)).isEqualTo(md5);
        assertThat(Authentication.decode(wrap("52" + "00000008" + "00000003"))).isSameAs(Authentication.CleartextPassword.INSTANCE);
        // 11 = AuthenticationSASLContinue with "r=x"
        assertThat(((Authentication.SaslContinue) Authentication.decode(wrap("52" + "0000000b" + "0000000b" + "723d78"))).text())
                .isEqualTo("r=x");
        assertThat(Authentication.decode(wrap("52" + "00000008" + "00000000"))).isSameAs(Authentication.Ok.INSTANCE);
        // 7 = AuthenticationGSS
        assertThat(Authentication.decode(wrap("52" + "00000008" + "00000007"))).isEqualTo(new Authentication.Other(7));
        assertThatThrownBy(() -> Authentication.decode(wrap("52" + "0000000a" + "00000005" + "a1b2")))
                .isInstanceOf(MalformedMessageException.class).hasMessageContaining("truncated");
    }

    @Test
    void errorResponseFromTheServer() {
        String golden = "45" + "0000001d" // 'E', length 29
                + "53" + "4552524f5200"     // S "ERROR"
                + "43" + "343250303100"     // C "42P01"
                + "4d" + "6e6f207461626c6500" // M "no table"
                + "00";                     // end of fields
        ErrorResponse error = ErrorResponse.decode(wrap(golden));
        assertThat(error.sqlState()).isEqualTo("42P01");
        assertThat(error.message()).isEqualTo("no table");
        assertThat(error.severity()).isEqualTo("ERROR");
        assertThat(error.endsSession()).isFalse();
        assertThat(encoded(error)).isEqualTo(golden);
    }

    @Test
    void proxyErrorsCarryTheFieldsClientsShow() {
        ErrorResponse error = PgErrors.unknownDatabase("nowhere");
        ErrorResponse roundTrip = ErrorResponse.decode(Unpooled.wrappedBuffer(ByteBufUtil.decodeHexDump(encoded(error))));
        assertThat(roundTrip).isEqualTo(error);
        assertThat(roundTrip.sqlState()).isEqualTo("3D000");
        assertThat(roundTrip.endsSession()).isTrue();
        assertThat(roundTrip.message()).isEqualTo("database \"nowhere\" does not exist");
        assertThat(roundTrip.fields()).containsKey(ErrorResponse.HINT);
    }

    /**
     * A server's message cut short anywhere is valid or malformed, never another exception: a session
     * answers a malformed one with FATAL 08P01 naming the backend, where any other exception would be
     * an internal error.
     */
    @Test
    void everyServerMessageCutShortAnywhereIsValidOrMalformed() {
        List<String> failures = new ArrayList<>();
        failures.addAll(CutMessages.typedFailures("ReadyForQuery", "5a" + "49", ReadyForQuery::decode)); // 'I'dle
        failures.addAll(CutMessages.typedFailures("ErrorResponse", "45"
                + "53" + "4552524f5200" + "43" + "343250303100" + "4d" + "6e6f00" // S ERROR, C 42P01, M no
                + "00", ErrorResponse::decode));
        failures.addAll(CutMessages.typedFailures("BackendKeyData", "4b" + "00003039" + "deadbeef", // pid, key
                BackendKeyData::decode));
        failures.addAll(CutMessages.typedFailures("AuthenticationMD5Password", "52" + "00000005" + "01020304",
                Authentication::decode));                                                 // its salt
        failures.addAll(CutMessages.typedFailures("AuthenticationSASL", "52" + "0000000a"
                + "534352414d2d5348412d32353600" + "00", Authentication::decode));         // SCRAM-SHA-256
        failures.addAll(CutMessages.typedFailures("ParameterStatus", "53" + "54696d655a6f6e6500" + "55544300",
                ParameterStatus::decode));                                               // TimeZone UTC
        failures.addAll(CutMessages.typedFailures("CommandComplete", "43" + "53454c454354203100",
                CommandComplete::decode));                                               // SELECT 1
        failures.addAll(CutMessages.typedFailures("DataRow", "44" + "0002" + "00000001" + "31" + "ffffffff",
                DataRow::decode));                                                       // "1", NULL
        failures.addAll(CutMessages.typedFailures("RowDescription", "54" + "0001" + "6100" + "00000000" + "0000"
                + "00000019" + "ffff" + "ffffffff" + "0000", RowDescription::decode));   // a text column "a"
        assertThat(failures).isEmpty();
    }

    static String encoded(BackendMessage message) {
        ByteBuf out = Unpooled.buffer();
        message.encode(out);
        return ByteBufUtil.hexDump(out);
    }
}
