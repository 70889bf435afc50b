package io.ramjet.protocol.command;

import io.ramjet.model.DestinationKind;
import io.ramjet.model.MessagePosition;
import io.ramjet.model.SubscriptionRef;
import io.ramjet.model.TxState;
import io.ramjet.model.XidCodec;
import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class TransactionHeadersTest {

    private final HeaderCodec headers = new HeaderCodec();

    private static List<AckRequest> acks() {
        return List.of(new AckRequest(7, SubscriptionRef.queue("orders"),
                List.of(new MessagePosition(0, 4), new MessagePosition(1, 9))));
    }

    private void roundTrip(Object header) {
        assertEquals(header, headers.decode(headers.encode(header)));
    }

    @Test
    void everyTransactionHeaderSurvivesARoundTrip() {
        roundTrip(new SendRequest("q", DestinationKind.QUEUE, 1, true, 0, 0, 3, -42L));
        roundTrip(new TxPrepareRequest(-42L, "", "127.0.0.1:10911", acks()));
        roundTrip(new TxEndRequest(5L, XidCodec.encode(1, new byte[] {1, 2}, new byte[0]), true, acks()));
        roundTrip(new TxEndRequest(0L, "", false, List.of()));
        roundTrip(new TxCheckRequest(Long.MIN_VALUE));
        roundTrip(new TxQueryRequest(Long.MAX_VALUE));
        for (TxState state : TxState.values()) {
            roundTrip(new TxStateResponse(3L, state));
        }
        roundTrip(new XaRecoverResponse(List.of("1:0a:0b", "2::")));
    }

    @Test
    void aSendWithoutTransactionHasIdZero() {
        assertEquals(0, new SendRequest("q", DestinationKind.QUEUE, 0, false, 0, 0, 0).transactionId());
    }

    @Test
    void aTransactionalSendCarriesNoProducer() {
        assertEquals(0, new SendRequest("q", DestinationKind.QUEUE, 0, false, 0, 0, 0, 5L).producerId());
        assertThrows(IllegalArgumentException.class,
                () -> new SendRequest("q", DestinationKind.QUEUE, 0, false, 0, 0, 0, 5L, 7L, 1L));
        assertThrows(IllegalArgumentException.class,
                () -> new SendRequest("q", DestinationKind.QUEUE, 0, false, 0, 0, 0, 0L, 7L, 0L));
    }

    @Test
    void xidsEncodeToOneStringAndBack() {
        byte[] gtrid = {(byte) 0xff, 0, 17};
        byte[] bqual = {42};
        String xid = XidCodec.encode(0x1234, gtrid, bqual);
        assertEquals("4660:ff0011:2a", xid);
        assertEquals(0x1234, XidCodec.formatId(xid));
        assertArrayEquals(gtrid, XidCodec.globalTransactionId(xid));
        assertArrayEquals(bqual, XidCodec.branchQualifier(xid));
        assertEquals(xid, XidCodec.encode(0x1234, gtrid.clone(), bqual.clone()));
        assertThrows(IllegalArgumentException.class, () -> XidCodec.formatId("nonsense"));
    }
}
