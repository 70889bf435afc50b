package io.ramjet.provider.message;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import jakarta.jms.JMSException;
import jakarta.jms.MessageFormatException;
import jakarta.jms.MessageNotWriteableException;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ObjectMessageTest {

    record Order(String id, int qty) implements Serializable {
    }

    private static final SerializationAllowList THIS_PACKAGE = SerializationAllowList.of("java.lang, io.ramjet.provider.**");

    @Test
    void serializesOnSetSoLaterChangesAreNotSeen() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        ArrayList<String> list = new ArrayList<>(List.of("a"));
        m.setObject(list);
        list.add("b");
        assertEquals(List.of("a"), m.getObject());
    }

    @Test
    void refusesAClassOutsideTheAllowListNamingIt() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject(new Order("o1", 2));
        MessageFormatException e = assertThrows(MessageFormatException.class, m::getObject);
        assertTrue(e.getMessage().contains(Order.class.getName()), e.getMessage());
        assertThrows(MessageFormatException.class, () -> m.getBody(Object.class));
    }

    @Test
    void refusesADisallowedClassNestedInAnAllowedOne() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject(new ArrayList<>(List.of(new Order("o1", 2))));
        MessageFormatException e = assertThrows(MessageFormatException.class, m::getObject);
        assertTrue(e.getMessage().contains(Order.class.getName()), e.getMessage());
    }

    @Test
    void allowsConfiguredPackagesAndTheirSubpackages() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(THIS_PACKAGE);
        m.setObject(new Order("o1", 2));
        assertEquals(new Order("o1", 2), m.getObject());
        assertEquals(new Order("o1", 2), m.getBody(Order.class));
        assertTrue(m.isBodyAssignableTo(Order.class));
        assertFalse(m.isBodyAssignableTo(String.class));
        assertThrows(MessageFormatException.class, () -> m.getBody(String.class));
    }

    @Test
    void allowListRules() {
        SerializationAllowList list = SerializationAllowList.of("com.acme");
        assertTrue(list.allows("com.acme.Order"));
        assertFalse(list.allows("com.acme.order.Line"), "a package, not its sub-packages");
        assertFalse(list.allows("com.acmeevil.Order"));
        SerializationAllowList tree = SerializationAllowList.of("com.acme.**");
        assertTrue(tree.allows("com.acme.Order"));
        assertTrue(tree.allows("com.acme.order.Line"));
        assertFalse(tree.allows("com.acmeevil.Order"));
        assertFalse(list.allows("Order"));
        assertTrue(list.allows("[Lcom.acme.Order;"));
        assertFalse(list.allows("[[Ljava.lang.String;"));
        assertTrue(list.allows("[I"));
        assertTrue(SerializationAllowList.of("*").allows("org.evil.Gadget"));
        assertFalse(SerializationAllowList.of("").allows("java.lang.String"));
    }

    @Test
    void theDefaultRefusesASerializedLambdaAndTheJdksOtherPackages() throws Exception {
        RamjetObjectMessage lambda = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        lambda.setObject((Serializable) Map.Entry.comparingByKey()); // a lambda of java.util.Map.Entry
        MessageFormatException refused = assertThrows(MessageFormatException.class, lambda::getObject);
        assertTrue(refused.getMessage().contains("java.lang.invoke.SerializedLambda"), refused.getMessage());
        RamjetObjectMessage level = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        level.setObject(java.util.logging.Level.INFO);
        refused = assertThrows(MessageFormatException.class, level::getObject);
        assertTrue(refused.getMessage().contains("java.util.logging.Level"), refused.getMessage());
        RamjetObjectMessage values = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        HashMap<String, Object> map = new HashMap<>(Map.of("when", java.time.Instant.EPOCH,
                "amount", new java.math.BigDecimal("1.5"), "list", new ArrayList<>(List.of(1L))));
        values.setObject(map);
        assertEquals(map, values.getObject(), "the JDK's value types still pass");
    }

    @Test
    void nullObjectAndClearBody() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        assertNull(m.getObject());
        m.setObject("x");
        m.setReadOnly();
        assertThrows(MessageNotWriteableException.class, () -> m.setObject("y"));
        m.clearBody();
        assertNull(m.getObject());
        m.setObject(null);
        assertNull(m.getBody(String.class));
    }

    @Test
    void refusesAnUnserializableObject() {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        List<Object> holder = new ArrayList<>();
        holder.add(new Object());
        assertThrows(MessageFormatException.class, () -> m.setObject((Serializable) holder));
    }

    @Test
    void survivesTheCodec() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(THIS_PACKAGE);
        m.setObject(new Order("o1", 2));
        EncodedMessage e = MessageCodec.encode(m);
        RamjetObjectMessage got = (RamjetObjectMessage) MessageCodec.decode(e.properties(), e.body(), THIS_PACKAGE);
        assertInstanceOf(Order.class, got.getObject());
        RamjetObjectMessage refused = (RamjetObjectMessage) MessageCodec.decode(e.properties(), e.body(),
                SerializationAllowList.DEFAULT);
        assertThrows(JMSException.class, refused::getObject);
    }

    /**
     * The "billion laughs" of serialization: 100 levels of HashSets, each holding the two of the
     * level below, whose hash codes take 2^100 steps to compute while the sets are rebuilt.
     */
    private static Set<Object> nestedHashSets(int levels) {
        Set<Object> root = new HashSet<>();
        Set<Object> s1 = root;
        Set<Object> s2 = new HashSet<>();
        for (int i = 0; i < levels; i++) {
            Set<Object> t1 = new HashSet<>();
            Set<Object> t2 = new HashSet<>();
            t1.add("foo");
            s1.add(t1);
            s1.add(t2);
            s2.add(t1);
            s2.add(t2);
            s1 = t1;
            s2 = t2;
        }
        return root;
    }

    @Test
    void nestedHashSetsAreRefusedQuicklyByTheDepthBound() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject((Serializable) nestedHashSets(100));
        MessageFormatException e = assertTimeoutPreemptively(Duration.ofSeconds(10),
                () -> assertThrows(MessageFormatException.class, m::getObject));
        assertTrue(e.getMessage().contains("nesting depth over 20"), e.getMessage());
        assertThrows(MessageFormatException.class, () -> m.getBody(Set.class));
    }

    @Test
    void nestingWithinTheDepthBoundIsRead() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject((Serializable) nestedHashSets(8));
        assertEquals(2, ((Set<?>) m.getObject()).size());
    }

    /** A serialized int[] of {@code length} elements that holds none: 27 bytes. */
    private static byte[] hugeIntArrayDeclaration(int length) throws Exception {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(new int[0]);
        }
        byte[] stream = bytes.toByteArray();
        ByteBuffer.wrap(stream).putInt(stream.length - 4, length);
        return stream;
    }

    @Test
    void aSmallStreamDeclaringAHugeArrayIsRefusedBeforeAllocating() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        byte[] stream = hugeIntArrayDeclaration(Integer.MAX_VALUE - 16);
        assertEquals(27, stream.length);
        m.setSerialized(stream);
        MessageFormatException e = assertThrows(MessageFormatException.class, m::getObject);
        assertTrue(e.getMessage().contains("array of 2147483631 elements"), e.getMessage());
    }

    @Test
    void anArrayLongerThanItsBodyIsRefusedWhateverTheArrayBound() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT
                .withBounds(20, Integer.MAX_VALUE, 1_000, 1 << 20));
        m.setSerialized(hugeIntArrayDeclaration(100_000_000));
        MessageFormatException e = assertThrows(MessageFormatException.class, m::getObject);
        assertTrue(e.getMessage().contains("in a body of 27 bytes"), e.getMessage());
    }

    @Test
    void eachBoundRefusesWhatPassesItsDefault() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT.withBounds(20, 10, 1_000, 10_000));
        m.setObject(new ArrayList<>(List.of(new int[11])));
        assertTrue(assertThrows(MessageFormatException.class, m::getObject).getMessage().contains("over 10"));
        RamjetObjectMessage refs = new RamjetObjectMessage(SerializationAllowList.DEFAULT.withBounds(20, 1000, 50, 10_000));
        ArrayList<Integer> numbers = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            numbers.add(1_000 + i);
        }
        refs.setObject(numbers);
        assertTrue(assertThrows(MessageFormatException.class, refs::getObject).getMessage().contains("references"));
        RamjetObjectMessage size = new RamjetObjectMessage(SerializationAllowList.DEFAULT.withBounds(20, 1000, 1000, 100));
        size.setObject(numbers);
        assertTrue(assertThrows(MessageFormatException.class, size::getObject).getMessage().contains("bytes"));
        assertThrows(IllegalArgumentException.class, () -> SerializationAllowList.DEFAULT.withBounds(0, 1, 1, 1));
    }

    @Test
    void aCorruptOrTruncatedStreamIsAMessageFormatException() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        m.setObject(new ArrayList<>(List.of("a", "b")));
        byte[] whole = m.serialized();
        for (int n = 0; n < whole.length; n++) {
            RamjetObjectMessage cut = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
            cut.setSerialized(Arrays.copyOf(whole, n));
            assertThrows(MessageFormatException.class, cut::getObject, "length " + n);
        }
        RamjetObjectMessage garbage = new RamjetObjectMessage(SerializationAllowList.DEFAULT);
        garbage.setSerialized(new byte[] {1, 2, 3});
        assertThrows(MessageFormatException.class, garbage::getObject);
    }

    @Test
    void aClassMissingHereIsAMessageFormatException() throws Exception {
        RamjetObjectMessage m = new RamjetObjectMessage(SerializationAllowList.of("*"));
        m.setObject(new Order("o1", 2));
        byte[] stream = m.serialized();
        byte[] name = Order.class.getName().getBytes(StandardCharsets.UTF_8);
        int at = indexOf(stream, name);
        stream[at + name.length - 1] = 'X';   // ...ObjectMessageTest$OrdeX, no such class
        m.setSerialized(stream);
        MessageFormatException e = assertThrows(MessageFormatException.class, m::getObject);
        assertInstanceOf(ClassNotFoundException.class, e.getLinkedException());
    }

    private static int indexOf(byte[] bytes, byte[] part) {
        for (int i = 0; i + part.length <= bytes.length; i++) {
            if (Arrays.equals(bytes, i, i + part.length, part, 0, part.length)) {
                return i;
            }
        }
        throw new AssertionError("not found");
    }
}
