package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import jakarta.jms.Connection;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.QueueBrowser;
import jakarta.jms.Session;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;

class BrowserTest extends BrokerTestSupport {

    @Test
    void aBrowserSeesWithoutConsumingAndHonoursItsSelector() throws Exception {
        try (Connection connection = connect()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("browse"));
            MessageProducer producer = session.createProducer(queue);
            for (int i = 0; i < 6; i++) {
                Message m = session.createMessage();
                m.setIntProperty("n", i);
                producer.send(m);
            }
            QueueBrowser all = session.createBrowser(queue);
            assertEquals(6, Collections.list(all.getEnumeration()).size());
            QueueBrowser low = session.createBrowser(queue, "n < 3");
            List<?> lows = Collections.list(low.getEnumeration());
            assertEquals(3, lows.size());
            MessageConsumer consumer = session.createConsumer(queue);
            for (int i = 0; i < 6; i++) {
                Message m = consumer.receive(TIMEOUT);
                assertNotNull(m, "message " + i + " still there");
                assertFalse(m.getJMSRedelivered(), "browsing is not a delivery");
            }
        }
    }
}
