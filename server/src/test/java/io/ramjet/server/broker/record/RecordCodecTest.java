package io.ramjet.server.broker.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.TxState;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.HexFormat;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The codes of the enums in the broker's records are pinned, whatever order the enums are declared in. */
class RecordCodecTest {

    private static String written(RecordCodec.Writer writer) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            writer.write(out);
        }
        return HexFormat.of().formatHex(bytes.toByteArray());
    }

    private static DataInputStream input(String hex) {
        return new DataInputStream(new ByteArrayInputStream(HexFormat.of().parseHex(hex)));
    }

    @Test
    void destinationKindCodes() throws IOException {
        Map<DestinationKind, String> codes = Map.of(DestinationKind.QUEUE, "00", DestinationKind.TOPIC, "01");
        assertEquals(DestinationKind.values().length, codes.size());
        for (Map.Entry<DestinationKind, String> e : codes.entrySet()) {
            assertEquals(e.getValue(), written(out -> RecordCodec.writeKind(out, e.getKey())));
            assertEquals(e.getKey(), RecordCodec.readKind(input(e.getValue())));
        }
        assertThrows(IOException.class, () -> RecordCodec.readKind(input("02")));
    }

    @Test
    void transactionStateCodes() throws IOException {
        Map<TxState, String> codes = Map.of(TxState.OPEN, "00", TxState.COMMITTED, "01", TxState.ROLLED_BACK, "02",
                TxState.UNKNOWN, "03");
        assertEquals(TxState.values().length, codes.size());
        for (Map.Entry<TxState, String> e : codes.entrySet()) {
            assertEquals(e.getValue(), written(out -> RecordCodec.writeState(out, e.getKey())));
            assertEquals(e.getKey(), RecordCodec.readState(input(e.getValue())));
        }
        assertThrows(IOException.class, () -> RecordCodec.readState(input("04")));
    }

    @Test
    void stringsAreACountThenUtf8AndNullIsMinusOne() throws IOException {
        assertEquals("00000002c3a9", written(out -> RecordCodec.writeString(out, "é")));
        assertEquals("ffffffff", written(out -> RecordCodec.writeString(out, null)));
        assertEquals("é", RecordCodec.readString(input("00000002c3a9")));
        assertEquals(null, RecordCodec.readString(input("ffffffff")));
    }
}
