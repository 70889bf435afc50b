package io.ramjet.samples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

class AsyncSendTest extends EmbeddedBrokerTest {

    @Test
    void everySendCompletesInOrderAndEveryMessageArrives() throws Exception {
        List<String> expected = IntStream.rangeClosed(1, 50).mapToObj(i -> "message " + i).toList();

        AsyncSend.Outcome outcome = AsyncSend.sendAll(factory, "async.orders", 50);

        assertTrue(outcome.allCallbacksHeard());
        assertEquals(List.of(), outcome.failed());
        assertEquals(expected, outcome.completed(), "callbacks of one producer come in send order");
        assertEquals(expected, drainTexts("async.orders"));
    }

    @Test
    void mainRunsAgainstTheGivenUrl() throws Exception {
        AsyncSend.main(new String[] {url()});
        assertEquals(100, drainTexts(AsyncSend.QUEUE).size());
    }
}
