package io.ramjet.provider.destination;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.message.MessageHeaders;
import jakarta.jms.IllegalStateException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class DestinationTest {

    @Test
    void destinationsAreValuesByKindAndName() throws Exception {
        assertEquals(new RamjetQueue("a"), new RamjetQueue("a"));
        assertNotEquals(new RamjetQueue("a"), new RamjetTopic("a"));
        assertNotEquals(new RamjetQueue("a"), new RamjetTemporaryQueue("a", null));
        assertEquals("a", new RamjetQueue("a").getQueueName());
        assertEquals("b", new RamjetTopic("b").getTopicName());
        assertThrows(IllegalArgumentException.class, () -> new RamjetQueue(""));
    }

    @Test
    void kindCodesRoundTrip() {
        for (RamjetDestination d : List.of(new RamjetQueue("q"), new RamjetTopic("t"),
                new RamjetTemporaryQueue("tq", null), new RamjetTemporaryTopic("tt", null))) {
            assertEquals(d, RamjetDestination.of(d.kindCode(), d.name()));
        }
        assertEquals(MessageHeaders.TEMPORARY_TOPIC, new RamjetTemporaryTopic("x", null).kindCode());
    }

    @Test
    void serializable() throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new RamjetTopic("t"));
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertEquals(new RamjetTopic("t"), in.readObject());
        }
    }

    @Test
    void temporaryDestinationsDeleteThroughTheirOwner() throws Exception {
        List<RamjetDestination> deleted = new ArrayList<>();
        RamjetTemporaryQueue q = new RamjetTemporaryQueue("tmp", deleted::add);
        q.delete();
        assertEquals(List.of(q), deleted);
        assertTrue(q.isTemporary());
        assertThrows(IllegalStateException.class, () -> new RamjetTemporaryQueue("x", null).delete());
    }
}
