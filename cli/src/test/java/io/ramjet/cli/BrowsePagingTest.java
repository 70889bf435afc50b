package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code browse --offset --limit}: a queue of 250 messages walked in pages of 100, nothing consumed. */
class BrowsePagingTest extends DeploymentTest {

    @Test
    void pagesOfAHundredWalkTwoHundredFiftyMessagesInOrder() throws JMSException {
        try (Connection connection = factory.createConnection()) {
            QueueCommandTest.send(connection, "pages", 250, 0);
        }
        List<String> bodies = new ArrayList<>();
        JsonNode first = page(0, 100, bodies);
        assertEquals(0, first.get("offset").asInt());
        assertEquals(100, first.get("next").asInt());
        JsonNode second = page(100, 100, bodies);
        assertEquals(200, second.get("next").asInt());
        JsonNode last = page(200, 100, bodies);
        assertTrue(last.get("next").isNull(), "the last page says so: " + last.get("next"));
        assertEquals(50, last.get("messages").size());

        assertEquals(IntStream.range(0, 250).mapToObj(i -> "pages " + i).toList(), bodies);
        assertEquals(250, cli.stat("pages").get("ready").asLong(), "browsing consumed nothing");
    }

    private JsonNode page(int offset, int limit, List<String> bodies) {
        JsonNode page = cli.json("browse", "--queue", "pages", "--offset", String.valueOf(offset), "--limit",
                String.valueOf(limit));
        page.get("messages").forEach(m -> bodies.add(m.get("body").asText()));
        return page;
    }
}
