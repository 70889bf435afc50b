package io.ramjet.protocol.command;

/**
 * Header of {@link CommandCode#ADMIN_PARKED_RESOLVE}: decide every parked send of origin group
 * {@code group} on the broker asked. {@code commit} delivers each as the group's answer "not held"
 * would; otherwise each is dropped as "held" would drop it.
 */
public record ParkedResolveRequest(String group, boolean commit) {

    public ParkedResolveRequest {
        if (group == null || group.isEmpty()) {
            throw new IllegalArgumentException("a parked send's origin group is named");
        }
    }
}
