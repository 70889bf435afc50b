package io.ramjet.protocol.selector;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.MessagePropertiesCodec;
import io.ramjet.protocol.message.TagSignature;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

/**
 * The common paths (comparison, IN, LIKE, IS NULL, AND/OR/NOT) allocate nothing per message,
 * on a client's message and on a header section read in place as the broker reads it; nor does
 * the broker's tag signature of a section.
 */
class AllocationTest {

    @Test
    void evaluatingWithoutArithmeticAllocatesNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Selector s = Selector.parse("color = 'red' AND n >= 3 AND d < 9.5 AND kind IN ('a', 'b') AND name LIKE 'ab%'"
                + " AND missing IS NULL AND NOT (flag = FALSE) OR JMSPriority = 4");
        MapSource m = new MapSource("color", "red", "n", 5, "d", 2.5d, "kind", "b", "name", "abc", "flag", true);
        boolean all = true;
        for (int i = 0; i < 20_000; i++) {
            all &= s.matches(m);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            all &= s.matches(m);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(all);
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for 100000 evaluations");
    }

    @Test
    void evaluatingOnEncodedHeaderSectionsAllocatesNothing() throws Exception {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        Selector s = Selector.parse("color IN ('c3', 'c4') AND n >= 300 AND price < 9.5 AND JMSType = 'car'"
                + " AND JMSTimestamp > 0 AND JMSXDeliveryCount < 3 AND name LIKE 'item%' AND missing IS NULL");
        ByteBuffer[] sections = new ByteBuffer[10];
        for (int i = 0; i < sections.length; i++) {
            MessageHeaders h = new MessageHeaders().type("car").timestamp(1_700_000_000_000L + i)
                    .property("color", "c" + i).property("n", 1_000 + i).property("price", 1.25d * i)
                    .property("name", "item" + i).property("big", 1L << 40);
            sections[i] = ByteBuffer.wrap(MessagePropertiesCodec.encode(h));
        }
        HeaderSectionView view = new HeaderSectionView();
        int matched = 0;
        for (int i = 0; i < 20_000; i++) {
            matched += s.matches(view.reset(sections[i % 10], 1)) ? 1 : 0;
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            matched += s.matches(view.reset(sections[i % 10], 1)) ? 1 : 0;
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertEquals(2 * 12_000, matched, "c3 and c4, whose price is below 9.5");
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for 100000 evaluations");
    }

    @Test
    void signingEncodedHeaderSectionsInPlaceAllocatesNothing() {
        var threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        ByteBuffer[] sections = new ByteBuffer[10];
        for (int i = 0; i < sections.length; i++) {
            MessageHeaders h = new MessageHeaders().messageId("ID:" + i).correlationId("c").type("car")
                    .replyTo(MessageHeaders.QUEUE, "replies").property("color", "c" + i).property("n", -1_000 * i)
                    .property("big", Long.MIN_VALUE).property("price", 1.25d * i).property("whole", 4.0f)
                    .property("ok", i % 2 == 0).property("nothing", null).property("JMSXGroupID", "g")
                    .property("b", (byte) i).property("s", (short) i);
            sections[i] = ByteBuffer.wrap(MessagePropertiesCodec.encode(h));
        }
        TagSignature sig = TagSignature.DEFAULT;
        long all = 0;
        for (int i = 0; i < 20_000; i++) {
            all |= sig.signatureOfSection(sections[i % 10]);
        }
        long id = Thread.currentThread().getId();
        long before = threads.getThreadAllocatedBytes(id);
        for (int i = 0; i < 100_000; i++) {
            all |= sig.signatureOfSection(sections[i % 10]);
        }
        long allocated = threads.getThreadAllocatedBytes(id) - before;
        assertTrue(TagSignature.mayMatch(all, sig.maskOf("color='c3'") | sig.maskOf("n=-3000")));
        assertTrue(allocated < 10_000, "allocated " + allocated + " bytes for 100000 signatures");
    }
}
