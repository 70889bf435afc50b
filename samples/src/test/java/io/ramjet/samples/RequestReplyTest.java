package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

import jakarta.jms.Connection;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestReplyTest extends EmbeddedBrokerTest {

    @Test
    void everyRequestGetsItsOwnReplyWithItsCorrelationId() throws Exception {
        List<RequestReply.Exchange> exchanges;
        try (Connection responder = RequestReply.startResponder(factory, "rr.requests")) {
            exchanges = RequestReply.request(factory, "rr.requests", List.of("one", "two", "three"));
        }

        assertEquals(List.of("ONE", "TWO", "THREE"), exchanges.stream().map(RequestReply.Exchange::reply).toList());
        for (RequestReply.Exchange exchange : exchanges) {
            assertEquals(exchange.correlationId(), exchange.replyCorrelationId(), exchange.toString());
        }
        assertNotEquals(exchanges.get(0).correlationId(), exchanges.get(1).correlationId());
        assertQueueEmpty("rr.requests");
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        RequestReply.main(new String[] {url()});
        assertQueueEmpty(RequestReply.REQUEST_QUEUE);
    }
}
