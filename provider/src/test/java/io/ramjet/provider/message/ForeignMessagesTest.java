package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;

import io.ramjet.provider.destination.RamjetQueue;
import jakarta.jms.BytesMessage;
import jakarta.jms.MapMessage;
import jakarta.jms.Message;
import jakarta.jms.MessageEOFException;
import jakarta.jms.Queue;
import jakarta.jms.StreamMessage;
import jakarta.jms.TextMessage;
import java.lang.reflect.Proxy;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Messages of "another provider", made as proxies that answer a few getters from a map. */
class ForeignMessagesTest {

    interface Answer {
        Object answer(Object[] args) throws Exception;
    }

    @SuppressWarnings("unchecked")
    private static <T> T foreign(Class<T> type, Map<String, Answer> answers) {
        Map<String, Answer> all = new HashMap<>(Map.of(
                "getJMSCorrelationID", a -> "corr",
                "getJMSCorrelationIDAsBytes", a -> "corr".getBytes(),
                "getJMSType", a -> "type",
                "getJMSReplyTo", a -> foreign(Queue.class, Map.of("getQueueName", x -> "replies")),
                "getPropertyNames", a -> Collections.enumeration(List.of("color", "n")),
                "getObjectProperty", a -> "color".equals(a[0]) ? "red" : (Object) 5L));
        all.putAll(answers);
        return (T) Proxy.newProxyInstance(type.getClassLoader(), new Class<?>[] {type}, (proxy, method, args) -> {
            Answer answer = all.get(method.getName());
            if (answer == null) {
                if (method.getReturnType() == void.class) {
                    return null;
                }
                throw new UnsupportedOperationException(method.getName());
            }
            return answer.answer(args);
        });
    }

    @Test
    void copiesATextMessageWithHeadersAndProperties() throws Exception {
        TextMessage m = foreign(TextMessage.class, Map.of("getText", a -> "hello"));
        RamjetMessage copy = ForeignMessages.copy(m, SerializationAllowList.DEFAULT);
        assertEquals("hello", ((RamjetTextMessage) copy).getText());
        assertEquals("corr", copy.getJMSCorrelationID());
        assertEquals("type", copy.getJMSType());
        assertEquals(new RamjetQueue("replies"), copy.getJMSReplyTo());
        assertEquals("red", copy.getStringProperty("color"));
        assertEquals(5L, copy.getLongProperty("n"));
    }

    @Test
    void copiesAMapMessage() throws Exception {
        Map<String, Object> entries = new LinkedHashMap<>();
        entries.put("a", 1);
        entries.put("b", new byte[] {1});
        MapMessage m = foreign(MapMessage.class, Map.of(
                "getMapNames", a -> Collections.enumeration(entries.keySet()),
                "getObject", a -> entries.get((String) a[0])));
        RamjetMapMessage copy = (RamjetMapMessage) ForeignMessages.copy(m, SerializationAllowList.DEFAULT);
        assertEquals(1, copy.getInt("a"));
        assertArrayEquals(new byte[] {1}, copy.getBytes("b"));
    }

    @Test
    void copiesABytesMessage() throws Exception {
        BytesMessage m = foreign(BytesMessage.class, Map.of(
                "getBodyLength", a -> 3L,
                "readBytes", a -> {
                    System.arraycopy(new byte[] {1, 2, 3}, 0, (byte[]) a[0], 0, 3);
                    return 3;
                }));
        RamjetBytesMessage copy = (RamjetBytesMessage) ForeignMessages.copy(m, SerializationAllowList.DEFAULT);
        assertArrayEquals(new byte[] {1, 2, 3}, copy.bodyBytes());
    }

    @Test
    void copiesAStreamMessage() throws Exception {
        Deque<Object> values = new ArrayDeque<>(List.of("x", 2));
        StreamMessage m = foreign(StreamMessage.class, Map.of("readObject", a -> {
            if (values.isEmpty()) {
                throw new MessageEOFException("end");
            }
            return values.pop();
        }));
        RamjetStreamMessage copy = (RamjetStreamMessage) ForeignMessages.copy(m, SerializationAllowList.DEFAULT);
        copy.reset();
        assertEquals("x", copy.readString());
        assertEquals(2, copy.readInt());
    }

    @Test
    void copiesAPlainMessage() throws Exception {
        Message m = foreign(Message.class, Map.of());
        assertEquals(RamjetMessage.class, ForeignMessages.copy(m, SerializationAllowList.DEFAULT).getClass());
    }

    @Test
    void aRamjetMessageIsItsOwnCopy() throws Exception {
        RamjetTextMessage m = new RamjetTextMessage("x");
        assertSame(m, ForeignMessages.copy(m, SerializationAllowList.DEFAULT));
    }

    @Test
    void foreignDestinationsBecomeRamjetOnes() throws Exception {
        TextMessage m = foreign(TextMessage.class, Map.of("getText", a -> "x",
                "getJMSReplyTo", a -> foreign(jakarta.jms.TemporaryTopic.class, Map.of("getTopicName", x -> "tmp"))));
        assertInstanceOf(jakarta.jms.TemporaryTopic.class, ForeignMessages.copy(m, SerializationAllowList.DEFAULT).getJMSReplyTo());
    }
}
