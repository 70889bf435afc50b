package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.netty.buffer.Unpooled;
import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.CreateDestinationRequest;
import io.ramjet.protocol.command.ParkedSendRequest;
import io.ramjet.protocol.command.SendRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code parked list|resolve} against two broker groups that each hold a send parked for a third
 * group that is gone: listed per origin group, decided on every broker that holds one, refused for
 * a group that is registered.
 */
class ParkedCommandTest extends TwoBrokerClusterTestSupport {

    private static final String GONE = "broker-9";
    private static final long PRODUCER = 0x5eed_0002L;

    @Test
    void parkedSendsAreListedPerOriginGroupAndCommittedOnEveryBrokerThatHoldsOne() throws Exception {
        park(0, 1, "first");
        park(1, 2, "second");

        JsonNode rows = cli.json("parked", "list");
        assertEquals(2, rows.size(), rows.toString());
        List<String> brokers = new ArrayList<>();
        for (JsonNode row : rows) {
            assertEquals(GONE, row.get("group").asText());
            assertEquals(ParkedRow.HELD, row.get("state").asText());
            assertEquals(Long.toHexString(PRODUCER), row.get("producer").asText());
            assertEquals("orders", row.get("destination").asText());
            brokers.add(row.get("broker").asText());
        }
        assertEquals(List.of("broker-0", "broker-1"), brokers);
        assertEquals(0, ready(), "a parked send is not delivered");

        JsonNode resolved = cli.json("parked", "resolve", "--group", GONE, "--commit");
        assertEquals(2, resolved.get("parked").asInt());
        assertEquals("committed", resolved.get("decision").asText());
        assertEquals(2, ready());
        assertEquals(0, cli.json("parked", "list").size());
        assertTrue(cli.failure(1, "parked", "resolve", "--group", GONE, "--commit")
                .contains("no broker holds a parked send of group " + GONE));
        assertEquals(2, ready(), "each delivered once");
    }

    @Test
    void discardedParkedSendsAreNeverDelivered() throws Exception {
        park(0, 1, "dropped");

        assertEquals("discarded", cli.json("parked", "resolve", "--group", GONE, "--discard").get("decision").asText());
        assertEquals(0, cli.json("parked", "list").size());
        assertEquals(0, ready());
    }

    @Test
    void aGroupWithARegisteredBrokerIsNotResolvedByHand() throws Exception {
        park(1, 1, "waits");
        assertTrue(cli.failure(1, "parked", "resolve", "--group", "broker-0", "--commit")
                .contains("group broker-0 has a broker registered"));
        assertEquals(1, cli.json("parked", "list").size());
    }

    @Test
    void resolveTakesExactlyOneDecisionAndAGroup() {
        assertTrue(cli.failure(2, "parked", "resolve", "--group", GONE).contains("--commit | --discard"));
        assertTrue(cli.failure(2, "parked", "resolve", "--group", GONE, "--commit", "--discard")
                .contains("mutually exclusive"));
        assertTrue(cli.failure(2, "parked", "resolve", "--commit").contains("--group"));
    }

    /** What an idempotent producer's client does when group {@link #GONE} lost its master: parks the send on another group. */
    private void park(int broker, long sequence, String text) throws Exception {
        String address = cluster.broker(broker).address();
        remoting.invokeSync(address, Frame.request(CommandCode.CREATE_DESTINATION,
                new CreateDestinationRequest("orders", DestinationKind.QUEUE, 1)), REQUEST);
        byte[] properties = MessagePropertiesCodec.encode(new MessageHeaders());
        byte[] body = text.getBytes(StandardCharsets.UTF_8);
        byte[] all = new byte[properties.length + body.length];
        System.arraycopy(properties, 0, all, 0, properties.length);
        System.arraycopy(body, 0, all, properties.length, body.length);
        SendRequest send = new SendRequest("orders", DestinationKind.QUEUE, 0, true, 0, 0, properties.length, 0,
                PRODUCER, sequence);
        remoting.invokeSync(address, Frame.request(CommandCode.PARKED_SEND, new ParkedSendRequest(GONE, send),
                Unpooled.wrappedBuffer(all)), REQUEST);
    }

    /** Messages ready on {@code orders} over both brokers. */
    private long ready() {
        long ready = 0;
        for (JsonNode row : cli.json("queue", "stat", "--name", "orders")) {
            ready += row.get("ready").asLong();
        }
        return ready;
    }
}
