package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jndi.RamjetObjectFactory;
import io.ramjet.provider.message.SerializationAllowList;
import jakarta.jms.Connection;
import jakarta.jms.MessageFormatException;
import jakarta.jms.ObjectMessage;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What an ObjectMessage may deserialize, set per connection factory through its URL, setters or JNDI reference. */
class ObjectMessageSettingsTest extends BrokerTestSupport {

    record Parcel(String label) implements Serializable {
    }

    private static String url(String options) {
        return "ramjet://" + broker.nameServerAddress() + options;
    }

    /** Sends a Parcel with one factory and receives it with another. */
    private static ObjectMessage sendAndReceive(RamjetConnectionFactory receiving, Serializable object) throws Exception {
        String name = unique("objects");
        try (Connection sender = factory().createConnection(); Connection receiver = receiving.createConnection()) {
            receiver.start();
            Session in = receiver.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = in.createQueue(name);
            var consumer = in.createConsumer(queue);
            Session out = sender.createSession(Session.AUTO_ACKNOWLEDGE);
            out.createProducer(queue).send(out.createObjectMessage(object));
            ObjectMessage received = (ObjectMessage) consumer.receive(TIMEOUT);
            assertNotNull(received);
            return received;
        }
    }

    @Test
    void aFactoryAllowListAdmitsItsPackagesAndOnlyThem() throws Exception {
        RamjetConnectionFactory admitting = new RamjetConnectionFactory(
                url("?serializablePackages=java.lang,io.ramjet.provider.jms"));
        assertEquals(new Parcel("p"), sendAndReceive(admitting, new Parcel("p")).getObject());

        ObjectMessage refused = sendAndReceive(factory(), new Parcel("p"));
        MessageFormatException e = assertThrows(MessageFormatException.class, refused::getObject);
        assertTrue(e.getMessage().contains(Parcel.class.getName()), e.getMessage());
    }

    @Test
    void aFactoryBoundApplies() throws Exception {
        RamjetConnectionFactory small = new RamjetConnectionFactory(url("?objectMaxArrayLength=2"));
        ObjectMessage m = sendAndReceive(small, new ArrayList<>(List.of(new long[3])));
        assertThrows(MessageFormatException.class, m::getObject);
        assertEquals(List.of("a"), sendAndReceive(small, new ArrayList<>(List.of("a"))).getObject());
    }

    @Test
    void urlOptionsSettersAndJndiReferenceAgree() throws Exception {
        RamjetConnectionFactory fromUrl = new RamjetConnectionFactory(url(
                "?serializablePackages=com.acme&objectMaxDepth=7&objectMaxArrayLength=8&objectMaxReferences=9"
                        + "&objectMaxBytes=10"));
        RamjetConnectionFactory fromSetters = new RamjetConnectionFactory(url(""));
        fromSetters.setSerializablePackages("com.acme");
        fromSetters.setObjectMaxDepth(7);
        fromSetters.setObjectMaxArrayLength(8);
        fromSetters.setObjectMaxReferences(9);
        fromSetters.setObjectMaxBytes(10);
        for (RamjetConnectionFactory f : List.of(fromUrl, fromSetters)) {
            SerializationAllowList list = f.serializationAllowList();
            assertEquals(List.of("com.acme"), list.packages());
            assertEquals(List.of(7L, 8L, 9L, 10L),
                    List.of((long) list.maxDepth(), (long) list.maxArrayLength(), list.maxReferences(), list.maxBytes()));
        }
        Object rebuilt = new RamjetObjectFactory().getObjectInstance(fromSetters.getReference(), null, null, null);
        assertEquals(fromSetters, rebuilt);
    }

    @Test
    void aMalformedOptionIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new RamjetConnectionFactory(url("?objectMaxDepth=deep")));
        assertThrows(IllegalArgumentException.class, () -> new RamjetConnectionFactory(url("?objectMaxDepth=0")));
    }

    @Test
    void withoutOptionsTheJvmWidePropertyDecides() {
        String before = System.getProperty(SerializationAllowList.PROPERTY);
        System.setProperty(SerializationAllowList.PROPERTY, "org.example");
        try {
            assertEquals(List.of("org.example"), factory().serializationAllowList().packages());
        } finally {
            if (before == null) {
                System.clearProperty(SerializationAllowList.PROPERTY);
            } else {
                System.setProperty(SerializationAllowList.PROPERTY, before);
            }
        }
    }
}
