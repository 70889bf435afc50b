package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.record.MessageRecordView;
import io.ramjet.protocol.selector.HeaderSectionView;
import io.ramjet.server.broker.subscription.GroupTag;

/**
 * Reads a record's message group ({@code JMSXGroupID}, and {@code JMSXGroupSeq = -1}) from its
 * header section in place, as selectors read properties: no decoding of the section, and a
 * group id seen before comes from the view's string cache. A section that does not follow its
 * layout, or a group id that is not a string, is a message without a group. Thread-safe:
 * serialised on its one view (reads are short and happen under a subscription's lock anyway).
 */
final class GroupReader {

    static final String GROUP_ID = "JMSXGroupID";
    static final String GROUP_SEQ = "JMSXGroupSeq";
    /** The JMSXGroupSeq that closes a group, as ActiveMQ Artemis and Classic read it. */
    static final int CLOSING_SEQ = -1;

    private final HeaderSectionView view = new HeaderSectionView();

    synchronized GroupTag read(MessageRecordView record) {
        view.reset(record.properties(), 1);
        if (!(view.get(GROUP_ID) instanceof String id)) {
            return GroupTag.NONE;
        }
        return new GroupTag(id, view.get(GROUP_SEQ) instanceof Number seq && seq.intValue() == CLOSING_SEQ);
    }
}
