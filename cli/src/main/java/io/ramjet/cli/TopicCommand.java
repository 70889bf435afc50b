package io.ramjet.cli;

import io.ramjet.model.DestinationKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/** {@code ramjet-admin topic create}; topics are listed, deleted and inspected with {@code queue}'s commands. */
@Command(name = "topic", description = "topics: create (list, stat and delete --topic are queue's commands)",
        mixinStandardHelpOptions = true)
final class TopicCommand {

    @Command(name = "create", description = {"create a topic on every master broker (or one), whatever the "
            + "brokers' auto-creation;", "needs the admin right; an existing topic is left as it is"})
    int create(@Mixin Common common, @Mixin Creation creation) {
        return creation.create(common, DestinationKind.TOPIC);
    }

    @Command(name = "extend", description = {"place an existing topic on more broker groups as well (--groups), live;",
            "needs the admin right; clients use the new groups from their next route refresh"})
    int extend(@Mixin Common common, @Mixin Creation creation) {
        return creation.extend(common, DestinationKind.TOPIC);
    }
}
