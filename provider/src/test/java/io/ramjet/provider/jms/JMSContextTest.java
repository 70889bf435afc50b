package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.IllegalStateRuntimeException;
import jakarta.jms.JMSConsumer;
import jakarta.jms.JMSContext;
import jakarta.jms.Message;
import jakarta.jms.MessageFormatRuntimeException;
import jakarta.jms.Queue;
import java.util.Map;
import org.junit.jupiter.api.Test;

class JMSContextTest extends BrokerTestSupport {

    @Test
    void sendsEveryBodyFormAndReceivesBodies() {
        try (JMSContext context = factory().createContext()) {
            Queue queue = context.createQueue(unique("context"));
            JMSConsumer consumer = context.createConsumer(queue);
            context.createProducer()
                    .send(queue, "text")
                    .send(queue, new byte[] {4, 5})
                    .send(queue, Map.<String, Object>of("k", 1))
                    .send(queue, Integer.valueOf(9));
            assertEquals("text", consumer.receiveBody(String.class, TIMEOUT));
            assertArrayEquals(new byte[] {4, 5}, consumer.receiveBody(byte[].class, TIMEOUT));
            assertEquals(1, consumer.receiveBody(Map.class, TIMEOUT).get("k"));
            assertEquals(9, consumer.receiveBody(Integer.class, TIMEOUT));
            assertNull(consumer.receiveBody(String.class, SHORT));
        }
    }

    @Test
    void producerPropertiesAndHeadersGoOnEveryMessage() throws Exception {
        try (JMSContext context = factory().createContext()) {
            Queue queue = context.createQueue(unique("props"));
            JMSConsumer consumer = context.createConsumer(queue);
            context.createProducer().setProperty("p", 3).setJMSType("kind").setJMSCorrelationID("c")
                    .setPriority(7).send(queue, "x");
            Message m = consumer.receive(TIMEOUT);
            assertEquals("3", m.getStringProperty("p"));
            assertEquals("kind", m.getJMSType());
            assertEquals("c", m.getJMSCorrelationID());
            assertEquals(7, m.getJMSPriority());
            assertThrows(MessageFormatRuntimeException.class,
                    () -> context.createProducer().setProperty("p", 1).getBooleanProperty("p"));
        }
    }

    @Test
    void clientAcknowledgeContextAcknowledgesAndDerivedContextsShareTheConnection() {
        JMSContext parent = factory().createContext();
        try (JMSContext client = parent.createContext(JMSContext.CLIENT_ACKNOWLEDGE)) {
            Queue queue = client.createQueue(unique("ctx-client"));
            JMSConsumer consumer = client.createConsumer(queue);
            client.createProducer().send(queue, "once");
            assertEquals("once", consumer.receiveBody(String.class, TIMEOUT));
            client.acknowledge();
            client.recover();
            assertNull(consumer.receive(SHORT));
            parent.close();
            assertTrue(client.getClientID() == null, "the connection is still open for the derived context");
        }
        assertThrows(IllegalStateRuntimeException.class, parent::getSessionMode);
    }
}
