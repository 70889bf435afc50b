package io.ramjet.cli;

import io.ramjet.model.DestinationKind;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code create} and {@code extend}, the subcommands {@code queue} and {@code topic} share: each
 * places a destination of its command's {@link #kind()} (see {@link Creation}). The help text names
 * the kind by the parent command's name.
 */
abstract class PlacementCommands {

    /** The kind of destination this command's {@code create} and {@code extend} place. */
    abstract DestinationKind kind();

    @Command(name = "create", description = {"create a ${PARENT-COMMAND-NAME} on every master broker (or one), "
            + "whatever the brokers' auto-creation;",
            "needs the admin right; an existing ${PARENT-COMMAND-NAME} is left as it is"})
    public int create(@Mixin Common common, @Mixin Creation creation) {
        return creation.create(common, kind());
    }

    @Command(name = "extend", description = {"place an existing ${PARENT-COMMAND-NAME} on more broker groups as well "
            + "(--groups), live;", "needs the admin right; clients use the new groups from their next route refresh"})
    public int extend(@Mixin Common common, @Mixin Creation creation) {
        return creation.extend(common, kind());
    }
}
