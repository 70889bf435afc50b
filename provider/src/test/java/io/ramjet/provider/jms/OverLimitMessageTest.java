package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.BytesMessage;
import jakarta.jms.CompletionListener;
import jakarta.jms.Connection;
import jakarta.jms.JMSException;
import jakarta.jms.Message;
import jakarta.jms.MessageConsumer;
import jakarta.jms.MessageProducer;
import jakarta.jms.Queue;
import jakarta.jms.Session;
import jakarta.jms.TextMessage;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * A message sent whole (its connection's {@code largeMessageSize} above its size) that is too
 * large for the wire (over the 16 MiB frame limit) or for the broker's store (over its 4 MiB
 * record limit) fails its own send with the size and the limit in the message; the connection,
 * its session and its consumer keep working. (At the default {@code largeMessageSize} such
 * messages travel in chunks: LargeMessageTest.)
 */
class OverLimitMessageTest extends BrokerTestSupport {

    private static final int MIB = 1024 * 1024;

    @Test
    void aMessageOverTheFrameLimitFailsItsSendAndNothingElse() throws Exception {
        JMSException refused = sendTooLargeThenUseTheConnection(17 * MIB);
        System.out.println("17 MiB send: " + refused);
        assertTrue(refused.getMessage().contains("16777216"), refused.getMessage());
        assertTrue(refused.getMessage().contains("frame limit"), refused.getMessage());
    }

    @Test
    void aMessageOverTheBrokersRecordLimitFailsItsSendWithTheBrokersReason() throws Exception {
        JMSException refused = sendTooLargeThenUseTheConnection(5 * MIB);
        System.out.println("5 MiB send: " + refused);
        assertTrue(refused.getMessage().contains(Integer.toString(4 * MIB)), refused.getMessage());
        assertFalse(refused.getMessage().contains("no live broker"), refused.getMessage());
    }

    @Test
    void anAsynchronousSendOverTheFrameLimitFailsThroughItsCompletionListener() throws Exception {
        try (Connection connection = wholeMessages()) {
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("over-limit-async"));
            MessageConsumer consumer = session.createConsumer(queue);
            MessageProducer producer = session.createProducer(queue);
            CompletableFuture<Exception> outcome = new CompletableFuture<>();
            producer.send(bytes(session, 17 * MIB), new CompletionListener() {
                @Override
                public void onCompletion(Message message) {
                    outcome.complete(null);
                }

                @Override
                public void onException(Message message, Exception exception) {
                    outcome.complete(exception);
                }
            });
            Exception failure = outcome.get(TIMEOUT, TimeUnit.MILLISECONDS);
            assertNotNull(failure, "the send succeeded");
            assertTrue(failure.getMessage().contains("frame limit"), failure.getMessage());

            producer.send(session.createTextMessage("after"));
            TextMessage received = (TextMessage) consumer.receive(TIMEOUT);
            assertNotNull(received);
            assertEquals("after", received.getText());
        }
    }

    /** The failure of a send of {@code size} body bytes, after checking the connection still works. */
    private static JMSException sendTooLargeThenUseTheConnection(int size) throws Exception {
        List<JMSException> reported = new CopyOnWriteArrayList<>();
        try (Connection connection = wholeMessages()) {
            connection.setExceptionListener(reported::add);
            Session session = connection.createSession(Session.AUTO_ACKNOWLEDGE);
            Queue queue = session.createQueue(unique("over-limit"));
            MessageConsumer consumer = session.createConsumer(queue);
            MessageProducer producer = session.createProducer(queue);
            producer.send(session.createTextMessage("before"));
            assertEquals("before", ((TextMessage) consumer.receive(TIMEOUT)).getText());

            long start = System.nanoTime();
            JMSException refused = assertThrows(JMSException.class, () -> producer.send(bytes(session, size)));
            System.out.printf("%d MiB send refused in %d ms%n", size / MIB,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start));
            assertTrue(refused.getMessage().contains(Integer.toString(size)) || refused.getMessage().contains("bytes"),
                    refused.getMessage());

            producer.send(session.createTextMessage("after"));
            TextMessage after = (TextMessage) consumer.receive(TIMEOUT);
            assertNotNull(after, "the consumer of the same connection receives after the refused send");
            assertEquals("after", after.getText());
            assertNull(consumer.receive(SHORT), "the refused message was not stored");
            assertEquals(List.of(), reported, "the connection reported no failure");
            return refused;
        }
    }

    private static BytesMessage bytes(Session session, int size) throws JMSException {
        BytesMessage message = session.createBytesMessage();
        message.writeBytes(new byte[size]);
        return message;
    }

    /** A connection that sends every message whole, however large. */
    private static Connection wholeMessages() throws JMSException {
        Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()
                + "?largeMessageSize=" + Integer.MAX_VALUE).createConnection();
        connection.start();
        return connection;
    }
}
