package io.ramjet.protocol.command;

import java.util.List;
import java.util.Objects;

/**
 * Header of {@link CommandCode#ANNOUNCE_DESTINATIONS}: the destinations a registered broker
 * created and deleted since what it last told the NameServer, so that a temporary queue's
 * creation does not send every destination the broker holds. A NameServer applies it only over
 * the connection that holds the broker's registration (which proved the secret, when there is
 * one), so it carries no proof of its own; otherwise it refuses and the broker registers whole.
 *
 * @param epoch   the epoch the broker registered with: a NameServer holding another refuses
 * @param added   destinations created (or changed) since, as a registration lists them
 * @param removed destinations deleted since
 */
public record AnnounceDestinationsRequest(BrokerInfo broker, int epoch, List<DestinationInfo> added,
                                          List<DestinationInfo> removed) {

    public AnnounceDestinationsRequest {
        Objects.requireNonNull(broker, "broker");
        added = List.copyOf(added);
        removed = List.copyOf(removed);
    }
}
