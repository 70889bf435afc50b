package io.ramjet.cli;

import io.ramjet.model.DestinationKind;
import picocli.CommandLine.Command;

/** {@code ramjet-admin topic create|extend}; topics are listed, deleted and inspected with {@code queue}'s commands. */
@Command(name = "topic", description = "topics: create (list, stat and delete --topic are queue's commands)",
        mixinStandardHelpOptions = true)
final class TopicCommand extends PlacementCommands {

    @Override
    DestinationKind kind() {
        return DestinationKind.TOPIC;
    }
}
