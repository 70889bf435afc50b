package io.ramjet.server.broker.delivery;

import io.ramjet.protocol.selector.HeaderSectionView;
import io.ramjet.server.broker.subscription.GroupTag;

/**
 * Reads a record's message group ({@code JMSXGroupID}, and {@code JMSXGroupSeq = -1}) from its
 * header section in place, as selectors read properties, through the view the fetcher also
 * evaluates the selector on: one walk of the section serves both. A section that does not follow
 * its layout, or a group id that is not a string, is a message without a group.
 */
final class GroupReader {

    static final String GROUP_ID = "JMSXGroupID";
    static final String GROUP_SEQ = "JMSXGroupSeq";
    /** The JMSXGroupSeq that closes a group, as ActiveMQ Artemis and Classic read it. */
    static final int CLOSING_SEQ = -1;

    private GroupReader() {
    }

    static GroupTag read(HeaderSectionView headers) {
        if (!(headers.get(GROUP_ID) instanceof String id)) {
            return GroupTag.NONE;
        }
        return new GroupTag(id, headers.get(GROUP_SEQ) instanceof Number seq && seq.intValue() == CLOSING_SEQ);
    }
}
