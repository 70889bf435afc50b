package io.ramjet.provider.client;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.jms.RamjetConnectionFactory;
import jakarta.jms.JMSException;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ClientOptionsTest {

    @Test
    void withoutOptionsTheDefaultsHold() {
        ClientOptions options = ClientOptions.fromUrlOptions(Map.of(), Set.of());
        assertEquals(ClientOptions.DEFAULTS, options);
        assertEquals(1000, options.prefetch());
        assertEquals(1 << 20, options.prefetchBytes());
        assertEquals(1, options.pullsInFlight());
        assertEquals(64, options.ackBatch());
        assertEquals(10, options.ackBatchMillis());
        assertEquals(300, options.pullHoldMillis());
        assertEquals(2_000, options.discoveryMillis());
        assertEquals(1024, options.acksInFlight());
        assertEquals(64, options.dupsOkBatch());
        assertEquals(100, options.dupsOkMillis());
        assertEquals(1024, options.transactedSendsInFlight());
        assertEquals(1024, options.nonPersistentSendsInFlight());
        assertEquals(30_000, options.failoverTimeout());
    }

    @Test
    void anOptionSetsItsTunable() {
        ClientOptions options = ClientOptions.fromUrlOptions(Map.of("prefetch", "8", "pullHoldMillis", "50"), Set.of());
        assertEquals(8, options.prefetch());
        assertEquals(50, options.pullHoldMillis());
        assertEquals(500, options.resubscribeMillis());
    }

    @Test
    void anUnknownOptionIsRefusedWithTheKnownOnes() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new RamjetConnectionFactory("ramjet://h:1?requestTimout=5"));
        assertTrue(e.getMessage().startsWith("unknown option requestTimout; known: "), e.getMessage());
        assertTrue(e.getMessage().contains("requestTimeout") && e.getMessage().contains("prefetch"), e.getMessage());
    }

    @Test
    void aMalformedValueIsRefusedNamingItsKeyAndTheAcceptedForm() {
        for (String option : new String[] {"requestTimeout=abc", "prefetch=-1", "discoveryMillis=", "acksInFlight=1e3"}) {
            String key = option.substring(0, option.indexOf('='));
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> new RamjetConnectionFactory("ramjet://h:1?" + option), option);
            assertTrue(e.getMessage().contains(key + "=<positive whole number>"), e.getMessage());
        }
    }

    @Test
    void aFactoryReadBackWithAnOptionThisVersionDoesNotKnowRefusesToConnect() throws Exception {
        byte[] serialized = serialize(new RamjetConnectionFactory("ramjet://127.0.0.1:1?prefetch=8"));
        byte[] tampered = replace(serialized, "prefetch=8", "prefetcX=8");
        RamjetConnectionFactory readBack;
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(tampered))) {
            readBack = (RamjetConnectionFactory) in.readObject();
        }
        JMSException e = assertThrows(JMSException.class, readBack::createConnection);
        assertTrue(e.getMessage().startsWith("unknown option prefetcX; known: "), e.getMessage());
    }

    private static byte[] serialize(Object o) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(o);
        }
        return bytes.toByteArray();
    }

    /** The bytes with one same-length ASCII text replaced by another. */
    private static byte[] replace(byte[] bytes, String from, String to) {
        String text = new String(bytes, StandardCharsets.ISO_8859_1);
        assertTrue(text.contains(from));
        return text.replace(from, to).getBytes(StandardCharsets.ISO_8859_1);
    }
}
