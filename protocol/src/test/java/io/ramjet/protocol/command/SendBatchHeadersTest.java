package io.ramjet.protocol.command;

import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class SendBatchHeadersTest {

    private final HeaderCodec headers = new HeaderCodec();

    private static List<BatchEntry> entries(int count) {
        List<BatchEntry> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new BatchEntry(i % 3, i % 2 == 0, i * 10L, i == 1 ? 5 : 0, i, 2 * i + 1));
        }
        return out;
    }

    @Test
    void batchRequestsOfAnySizeSurviveARoundTrip() {
        for (int count : new int[] {1, 2, 3, 100}) {
            SendBatchRequest request = new SendBatchRequest("orders", DestinationKind.TOPIC, entries(count));
            assertEquals(request, headers.decode(headers.encode(request)), count + " entries");
        }
    }

    @Test
    void batchResponseSurvivesARoundTrip() {
        SendBatchResponse response = new SendBatchResponse(List.of(new MessagePosition(0, 7),
                new MessagePosition(1, -1), new MessagePosition(0, 8)));
        assertEquals(response, headers.decode(headers.encode(response)));
    }

    @Test
    void bodyLengthAddsUpTheEntries() {
        assertEquals(1 + 3 + 5, new SendBatchRequest("q", DestinationKind.QUEUE, entries(3)).bodyLength());
    }

    @Test
    void malformedEntriesAndEmptyBatchesAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> new BatchEntry(-1, true, 0, 0, 0, 0));
        assertThrows(IllegalArgumentException.class, () -> new BatchEntry(0, true, 0, 0, 5, 4));
        assertThrows(IllegalArgumentException.class, () -> new SendBatchRequest("q", DestinationKind.QUEUE, List.of()));
    }
}
