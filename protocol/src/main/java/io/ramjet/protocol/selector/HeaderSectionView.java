package io.ramjet.protocol.selector;

import io.ramjet.protocol.message.HeaderSectionDescriptor;
import io.ramjet.protocol.message.MessageFormatError;
import io.ramjet.protocol.message.MessageHeaders;
import io.ramjet.protocol.message.ValueCodec;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * An encoded header section as a selector sees it, read where it lies through the walk of
 * {@link HeaderSectionDescriptor}: how the broker evaluates selectors on the records it reads.
 * {@link #reset} points the view at the next message; after warming up nothing is allocated per
 * message on the common paths. Names are compared with the UTF-8 bytes in place, numbers come in
 * holders the view owns (one per property, so {@code a < b} sees two), and strings from a small
 * cache of values seen before, since a selected property usually takes few values; a string not
 * seen before is decoded once.
 *
 * <p>The view reads what decoding the section would give: a name that comes twice has its last
 * value. JMSXDeliveryCount is not in the section: it is the count given to {@link #reset}, as
 * the client sets it on the message it hands out. A section that does not follow the layout
 * (none, another version, anything {@link HeaderSectionDescriptor#check} refuses) reads as a
 * message without headers or properties: every identifier but JMSXDeliveryCount is null. Not
 * thread-safe; values returned are valid until the next reset.
 */
public final class HeaderSectionView implements PropertySource {

    private static final String DELIVERY_COUNT = "JMSXDeliveryCount";

    private final Utf8Strings strings = new Utf8Strings();
    private final ReusableLong timestamp = new ReusableLong();
    private final ReusableInt deliveryCount = new ReusableInt();
    private ByteBuffer section;
    private boolean valid;
    private int deliveryMode;
    private int priority;
    private int messageIdAt = -1, correlationIdAt = -1, typeAt = -1;
    private int count;
    private int[] nameAt = new int[8];
    private int[] valueAt = new int[8];
    private ReusableInt[] ints = new ReusableInt[8];
    private ReusableLong[] longs = new ReusableLong[8];
    private ReusableFloat[] floats = new ReusableFloat[8];
    private ReusableDouble[] approximate = new ReusableDouble[8];
    private final HeaderSectionDescriptor.SectionIndex index = new Index();

    /**
     * Points the view at a section, from the buffer's position to its limit; the buffer is not
     * moved, and must not change while the view is used.
     *
     * @param deliveryCount the JMSXDeliveryCount of the delivery at hand, counting it
     */
    public HeaderSectionView reset(ByteBuffer section, int deliveryCount) {
        this.section = section;
        this.deliveryCount.set(deliveryCount);
        clearIndex();
        valid = indexed(section);
        if (valid) {
            readFixedPart();
        } else {
            clearIndex(); // what the walk found before it failed
        }
        return this;
    }

    @Override
    public Object get(String identifier) {
        if (identifier.equals(DELIVERY_COUNT)) {
            return deliveryCount;
        }
        if (!valid) {
            return null;
        }
        switch (identifier) {
            case "JMSDeliveryMode":
                return deliveryMode == MessageHeaders.PERSISTENT ? "PERSISTENT" : "NON_PERSISTENT";
            case "JMSPriority":
                return priority;
            case "JMSMessageID":
                return string(messageIdAt);
            case "JMSTimestamp":
                return timestamp;
            case "JMSCorrelationID":
                return string(correlationIdAt);
            case "JMSType":
                return string(typeAt);
            default:
                return property(identifier);
        }
    }

    /**
     * Checks the section and records where each string and property starts, in one walk;
     * false when it does not follow the layout.
     */
    private boolean indexed(ByteBuffer section) {
        try {
            HeaderSectionDescriptor.check(section, index);
            return true;
        } catch (MessageFormatError e) {
            return false;
        }
    }

    private void clearIndex() {
        messageIdAt = correlationIdAt = typeAt = -1;
        count = 0;
    }

    private void readFixedPart() {
        int base = section.position();
        deliveryMode = section.get(base + HeaderSectionDescriptor.DELIVERY_MODE_OFFSET);
        priority = section.get(base + HeaderSectionDescriptor.PRIORITY_OFFSET);
        timestamp.set(section.getLong(base + HeaderSectionDescriptor.TIMESTAMP_OFFSET));
    }

    /** Where the walk finds the headers a selector names and each property. */
    private final class Index implements HeaderSectionDescriptor.SectionIndex {

        @Override
        public void header(int header, int at) {
            switch (header) {
                case HeaderSectionDescriptor.MESSAGE_ID -> messageIdAt = at;
                case HeaderSectionDescriptor.CORRELATION_ID -> correlationIdAt = at;
                case HeaderSectionDescriptor.TYPE -> typeAt = at;
                default -> {
                    // reply-to and correlation id bytes: no selector identifier names them
                }
            }
        }

        @Override
        public void property(int nameAt, int valueAt) {
            ensureCapacity(count + 1);
            HeaderSectionView.this.nameAt[count] = nameAt;
            HeaderSectionView.this.valueAt[count++] = valueAt;
        }
    }

    /** The string whose varint length starts at {@code start}, or null for -1. */
    private String string(int start) {
        if (start < 0) {
            return null;
        }
        int limit = section.limit();
        return strings.get(section, ValueCodec.varintEnd(section, start, limit), ValueCodec.varintAt(section, start, limit));
    }

    /** The value of the last property of that name, as decoding keeps the last value of a name. */
    private Object property(String name) {
        int limit = section.limit();
        for (int i = count - 1; i >= 0; i--) {
            int at = ValueCodec.varintEnd(section, nameAt[i], limit);
            if (Utf8Strings.sameText(section, at, ValueCodec.varintAt(section, nameAt[i], limit), name)) {
                return value(i);
            }
        }
        return null;
    }

    private Object value(int i) {
        int v = valueAt[i];
        byte tag = section.get(v);
        if (tag == ValueCodec.LONG) {
            return longOf(i).set(ValueCodec.integerAt(section, v));
        }
        if (ValueCodec.isInteger(tag)) {
            return intOf(i).set((int) ValueCodec.integerAt(section, v));
        }
        if (tag == ValueCodec.FLOAT) {
            return floatOf(i).set((float) ValueCodec.floatingAt(section, v));
        }
        if (ValueCodec.isFloating(tag)) {
            return approximate(i).set(ValueCodec.floatingAt(section, v));
        }
        return switch (tag) {
            case ValueCodec.FALSE -> Boolean.FALSE;
            case ValueCodec.TRUE -> Boolean.TRUE;
            case ValueCodec.STRING -> string(v + 1);
            default -> null;
        };
    }

    private ReusableInt intOf(int i) {
        if (ints[i] == null) {
            ints[i] = new ReusableInt();
        }
        return ints[i];
    }

    private ReusableLong longOf(int i) {
        if (longs[i] == null) {
            longs[i] = new ReusableLong();
        }
        return longs[i];
    }

    private ReusableFloat floatOf(int i) {
        if (floats[i] == null) {
            floats[i] = new ReusableFloat();
        }
        return floats[i];
    }

    private ReusableDouble approximate(int i) {
        if (approximate[i] == null) {
            approximate[i] = new ReusableDouble();
        }
        return approximate[i];
    }

    private void ensureCapacity(int properties) {
        if (properties > nameAt.length) {
            int n = Math.max(properties, nameAt.length * 2);
            nameAt = Arrays.copyOf(nameAt, n);
            valueAt = Arrays.copyOf(valueAt, n);
            ints = Arrays.copyOf(ints, n);
            longs = Arrays.copyOf(longs, n);
            floats = Arrays.copyOf(floats, n);
            approximate = Arrays.copyOf(approximate, n);
        }
    }
}
