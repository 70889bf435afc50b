package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpringJmsTemplateTest extends EmbeddedBrokerTest {

    @Test
    void templateRoundTripsAndTheListenerContainerReceivesInOrder() throws Exception {
        List<String> texts = List.of("a", "b", "c", "d", "e");

        SpringJmsTemplate.Received received = SpringJmsTemplate.run(url(), texts);

        assertEquals("hello from JmsTemplate", received.byTemplate());
        assertEquals(texts, received.byListener());
        assertQueueEmpty(SpringJmsTemplate.TEMPLATE_QUEUE);
        assertQueueEmpty(SpringJmsTemplate.LISTENER_QUEUE);
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        SpringJmsTemplate.main(new String[] {url()});
        assertQueueEmpty(SpringJmsTemplate.LISTENER_QUEUE);
    }
}
