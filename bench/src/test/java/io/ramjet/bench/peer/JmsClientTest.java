package io.ramjet.bench.peer;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.apache.activemq.artemis.jms.client.ActiveMQConnectionFactory;
import org.junit.jupiter.api.Test;

class JmsClientTest {

    @Test
    void artemisWaitsForTheAcknowledgementOnlyOnTheClientAcknowledgeDrain() {
        JmsClient client = JmsClient.artemis("tcp://127.0.0.1:61616", 1 << 16);

        ActiveMQConnectionFactory acknowledging = (ActiveMQConnectionFactory) client.clientAcknowledgeFactory();
        ActiveMQConnectionFactory other = (ActiveMQConnectionFactory) client.factory();
        assertTrue(acknowledging.isBlockOnAcknowledge(), "CLIENT_ACKNOWLEDGE: acknowledge() waits, as Ramjet's");
        assertFalse(other.isBlockOnAcknowledge(), "AUTO, DUPS_OK and transacted keep Artemis's default");
        assertTrue(acknowledging.isBlockOnDurableSend() && other.isBlockOnDurableSend());
        assertTrue(client.settings().get("client-blockOnAcknowledge").startsWith("true on the CLIENT_ACKNOWLEDGE"),
                client.settings().toString());
    }
}
