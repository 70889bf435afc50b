package io.ramjet.provider.message;

import java.io.ObjectInputFilter;

/**
 * The filter of one ObjectMessage body's deserialization: the allow-list's classes and bounds,
 * and an array no longer than the body (every element takes at least a byte of it), so that no
 * body asks for more memory than a few times its own size. The JVM-wide filter
 * ({@code jdk.serialFilter}), when one is set, is consulted as well and may refuse more. Keeps
 * the reason of its first refusal for the exception the application sees. One per
 * deserialization, on the thread that reads.
 */
final class ObjectMessageFilter implements ObjectInputFilter {

    private final SerializationAllowList allowList;
    private final long bodyLength;
    private final ObjectInputFilter jvmWide = ObjectInputFilter.Config.getSerialFilter();
    private String refusal;

    ObjectMessageFilter(SerializationAllowList allowList, long bodyLength) {
        this.allowList = allowList;
        this.bodyLength = bodyLength;
    }

    /** Why the filter refused the body, or null when it did not. */
    String refusal() {
        return refusal;
    }

    @Override
    public Status checkInput(FilterInfo info) {
        String reason = reasonToRefuse(info);
        if (reason == null && jvmWide != null && jvmWide.checkInput(info) == Status.REJECTED) {
            reason = "refused by the JVM-wide serial filter " + jvmWide;
        }
        if (reason != null) {
            if (refusal == null) {
                refusal = reason;
            }
            return Status.REJECTED;
        }
        return info.serialClass() != null ? Status.ALLOWED : Status.UNDECIDED;
    }

    private String reasonToRefuse(FilterInfo info) {
        if (info.depth() > allowList.maxDepth()) {
            return "nesting depth over " + allowList.maxDepth();
        }
        if (info.references() > allowList.maxReferences()) {
            return "more than " + allowList.maxReferences() + " references";
        }
        if (info.streamBytes() > allowList.maxBytes()) {
            return "more than " + allowList.maxBytes() + " bytes";
        }
        if (info.arrayLength() > allowList.maxArrayLength()) {
            return "array of " + info.arrayLength() + " elements, over " + allowList.maxArrayLength();
        }
        if (info.arrayLength() > bodyLength) {
            return "array of " + info.arrayLength() + " elements in a body of " + bodyLength + " bytes";
        }
        Class<?> type = info.serialClass();
        if (type != null && !allowList.allows(type.getName())) {
            return "class " + type.getName() + " not in the ObjectMessage allow-list " + allowList.packages();
        }
        return null;
    }
}
