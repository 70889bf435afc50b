package io.ramjet.server.remoting;

import io.ramjet.protocol.command.DestinationInfo;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The destinations a broker last told its NameServers, by name (as a NameServer keys them), so
 * that the next change is announced as what was created and deleted since, not as every
 * destination again. Unknown (nothing to compare with) until the first registration, and again
 * after a failure, when only a whole registration can say what the NameServers hold. Thread-safe.
 */
final class AnnouncedDestinations {

    /** Created and deleted destinations, in the order of the lists they were compared from. */
    record Changes(List<DestinationInfo> added, List<DestinationInfo> removed) {

        boolean none() {
            return added.isEmpty() && removed.isEmpty();
        }
    }

    private Map<String, DestinationInfo> told;

    /** A whole registration of these destinations was sent. */
    synchronized void registered(List<DestinationInfo> destinations) {
        Map<String, DestinationInfo> byName = new HashMap<>();
        for (DestinationInfo destination : destinations) {
            byName.put(destination.name(), destination);
        }
        told = byName;
    }

    /** What the NameServers hold is no longer known: the next announcement must be a registration. */
    synchronized void forget() {
        told = null;
    }

    /**
     * What changed from what was told to {@code current}, taken as told from now on; empty when
     * nothing is known to compare with.
     */
    synchronized Optional<Changes> changesTo(List<DestinationInfo> current) {
        if (told == null) {
            return Optional.empty();
        }
        Map<String, DestinationInfo> now = new HashMap<>();
        List<DestinationInfo> added = new ArrayList<>();
        for (DestinationInfo destination : current) {
            now.put(destination.name(), destination);
            if (!destination.equals(told.get(destination.name()))) {
                added.add(destination);
            }
        }
        List<DestinationInfo> removed = new ArrayList<>();
        for (DestinationInfo before : told.values()) {
            if (!now.containsKey(before.name())) {
                removed.add(before);
            }
        }
        told = now;
        return Optional.of(new Changes(added, removed));
    }
}
