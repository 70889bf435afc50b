package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class HelloQueueTest extends EmbeddedBrokerTest {

    @Test
    void receivesTheTextItSent() throws Exception {
        assertEquals("hello from a test", HelloQueue.sendAndReceive(factory, "hello.roundtrip", "hello from a test"));
        assertQueueEmpty("hello.roundtrip");
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        HelloQueue.main(new String[] {url()});
        assertQueueEmpty(HelloQueue.QUEUE);
    }
}
