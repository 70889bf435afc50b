package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import java.nio.ByteBuffer;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The engine on generated and mutated selectors ({@link SelectorGenerator}): every text
 * compiles or raises {@link SelectorSyntaxException}, and every compiled selector gives the
 * broker's answer on the record's header section ({@link HeaderSectionView}) that it gives the
 * client on the decoded message. The seed is printed; {@code -Dselector.fuzz.seed=N} replays it.
 */
class SelectorFuzzTest {

    private static final int TEXTS = 40_000;
    private static final int SELECTORS = 4_000, MESSAGES_PER_SELECTOR = 5;

    private static long seed(String test) {
        long seed = Long.getLong("selector.fuzz.seed", System.nanoTime());
        System.out.println("SelectorFuzzTest." + test + " seed " + seed + " (replay with -Dselector.fuzz.seed=" + seed + ")");
        return seed;
    }

    @Test
    void everyTextCompilesOrRaisesSelectorSyntaxException() {
        long seed = seed("everyTextCompilesOrRaisesSelectorSyntaxException");
        SelectorGenerator g = new SelectorGenerator(seed);
        int accepted = 0;
        for (int i = 0; i < TEXTS; i++) {
            String text = i % 2 == 0 ? g.selector() : g.mutant();
            try {
                Selector s = Selector.parse(text);
                s.evaluate(source(decoded(message(g)), 1));
                accepted++;
            } catch (SelectorSyntaxException expected) {
                assertTrue(expected.position() >= 1 && expected.position() <= text.length() + 1, expected.getMessage());
            } catch (Throwable t) {
                fail("seed " + seed + ", input " + i + ": " + t + " for " + abbreviate(text), t);
            }
        }
        System.out.println("SelectorFuzzTest: " + TEXTS + " texts, " + accepted + " compiled, "
                + (TEXTS - accepted) + " refused");
        assertTrue(accepted > TEXTS / 4, "the generator mostly makes selectors that compile: " + accepted);
    }

    @Test
    void theBrokerViewAndTheDecodedMessageGiveTheSameResult() throws Exception {
        long seed = seed("theBrokerViewAndTheDecodedMessageGiveTheSameResult");
        SelectorGenerator g = new SelectorGenerator(seed);
        HeaderSectionView view = new HeaderSectionView();
        int compiled = 0, evaluations = 0;
        Boolean[] seen = new Boolean[3];
        while (compiled < SELECTORS) {
            Selector s;
            try {
                s = Selector.parse(g.selector());
            } catch (SelectorSyntaxException refused) {
                continue;
            }
            compiled++;
            for (int m = 0; m < MESSAGES_PER_SELECTOR; m++) {
                MessageHeaders sent = message(g);
                int deliveryCount = 1 + g.random().nextInt(3);
                byte[] record = MessagePropertiesCodec.encode(sent);
                Boolean client = s.evaluate(source(MessagePropertiesCodec.decode(record), deliveryCount));
                Boolean broker = s.evaluate(view.reset(ByteBuffer.wrap(record), deliveryCount));
                assertEquals(client, broker, () -> "seed " + seed + ": " + s + " on " + sent.properties());
                seen[client == null ? 2 : client ? 1 : 0] = client;
                evaluations++;
            }
        }
        System.out.println("SelectorFuzzTest: " + evaluations + " evaluations of " + compiled + " selectors agree");
        assertTrue(seen[0] != null && seen[1] != null && seen[2] == null, "TRUE, FALSE and unknown all occur");
    }

    private static MessageHeaders message(SelectorGenerator g) {
        MessageHeaders h = new MessageHeaders().messageId("ID:" + g.random().nextInt(1000))
                .timestamp(1_700_000_000_000L + g.random().nextInt(1000)).correlationId(g.headerString())
                .type(g.headerString()).priority(g.random().nextInt(10))
                .deliveryMode(g.random().nextBoolean() ? MessageHeaders.PERSISTENT : MessageHeaders.NON_PERSISTENT);
        for (Map.Entry<String, Object> p : g.properties().entrySet()) {
            h.property(p.getKey(), p.getValue());
        }
        return h;
    }

    private static MessageHeaders decoded(MessageHeaders h) {
        return MessagePropertiesCodec.decode(MessagePropertiesCodec.encode(h));
    }

    /** The decoded message as the client's message reads it ({@code RamjetMessage.get}). */
    private static PropertySource source(MessageHeaders h, int deliveryCount) {
        return id -> switch (id) {
            case "JMSDeliveryMode" -> h.deliveryMode() == MessageHeaders.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT";
            case "JMSPriority" -> h.priority();
            case "JMSMessageID" -> h.messageId();
            case "JMSTimestamp" -> h.timestamp();
            case "JMSCorrelationID" -> h.correlationId();
            case "JMSType" -> h.type();
            case "JMSXDeliveryCount" -> deliveryCount;
            default -> h.properties().get(id);
        };
    }

    private static String abbreviate(String s) {
        return s.length() > 300 ? s.substring(0, 300) + "... (" + s.length() + " chars)" : s;
    }
}
