package io.ramjet.server.broker.delivery;

import io.ramjet.model.record.MessageRecordView;
import io.ramjet.protocol.message.TagSignature;
import io.ramjet.protocol.selector.HeaderSectionView;
import io.ramjet.protocol.selector.Selector;
import io.ramjet.protocol.selector.SelectorAnalysis;
import io.ramjet.protocol.selector.SelectorSyntaxException;

/**
 * One consumer's selector as the broker applies it, compiled once when the consumer
 * subscribes. Its tag masks (the broker's own analysis, over the signatures the broker itself
 * computed when it stored each message) skip ConsumeQueue entries without reading their
 * records; a selector that yields no mask (a numeric range, LIKE, OR ...) skips nothing that
 * way. Then the selector is evaluated exactly on each record the broker does read, so neither a
 * signature's false positive nor a message a mask-less selector refuses travels to the
 * consumer, and queues do not ping-pong. The client verifies every message all the same.
 * Thread-safe; evaluation reads the record's header section in place and allocates nothing per
 * message on the common paths ({@link HeaderSectionView}).
 *
 * <p>The masks are the broker's own: a client's would be computed with its own idea of the
 * signature function, and a wrong one would hide messages from its consumer.
 */
public final class ConsumerSelector {

    /** No selector: every message. */
    public static final ConsumerSelector ALL = new ConsumerSelector(null, new long[0]);

    private final Selector selector;
    private final long[] masks;
    private final HeaderSectionView view = new HeaderSectionView();

    private ConsumerSelector(Selector selector, long[] masks) {
        this.selector = selector;
        this.masks = masks;
    }

    /**
     * Compiles a consumer's selector; null or blank is {@link #ALL}.
     *
     * @throws SelectorSyntaxException when it does not follow the grammar
     */
    public static ConsumerSelector compile(String text) throws SelectorSyntaxException {
        Selector selector = Selector.parse(text);
        if (selector.isEmpty()) {
            return ALL;
        }
        SelectorAnalysis analysis = SelectorAnalysis.of(selector, TagSignature.DEFAULT);
        return new ConsumerSelector(selector, analysis.masks());
    }

    /** Whether an entry of this tag signature may match, judged without reading its record. */
    boolean mayMatch(long tagSignature) {
        return TagSignature.mayMatchAny(tagSignature, masks);
    }

    /** Whether there is a selector to evaluate on the records the broker reads. */
    boolean evaluates() {
        return selector != null;
    }

    /**
     * The exact verdict on a record about to be delivered for the {@code deliveryCount}-th time.
     * A header section that does not decode is a message without headers or properties, as its
     * tag signature (none) says. Serialised on the consumer's one view: its pulls rarely overlap.
     */
    boolean matches(MessageRecordView record, int deliveryCount) {
        if (selector == null) {
            return true;
        }
        synchronized (view) {
            return selector.matches(view.reset(record.properties(), deliveryCount));
        }
    }

    /** The exact verdict on a header section its caller's view was reset to (its own, so no lock). */
    boolean matches(HeaderSectionView headers) {
        return selector == null || selector.matches(headers);
    }

    /** The selector's text, null for none. */
    public String text() {
        return selector == null ? null : selector.text();
    }

    @Override
    public String toString() {
        return selector == null ? "(all)" : selector.text();
    }
}
