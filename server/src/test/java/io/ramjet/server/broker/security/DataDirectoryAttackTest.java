package io.ramjet.server.broker.security;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Another local user reads the data directory: every directory and file the broker creates
 * (CommitLog segments, ConsumeQueues, checkpoint, snapshot, markers) is its owner's only, even
 * when the broker runs under a umask that would let everyone read and write them.
 */
class DataDirectoryAttackTest {

    @TempDir
    Path dir;

    @Test
    void everythingTheBrokerCreatesIsItsOwnersOnlyWhateverTheUmask() throws Exception {
        SecuredDeployment deployment = new SecuredDeployment(dir, "checkpointIntervalMs=100");
        Path data = dir.resolve("data");
        try (SecuredDeployment.Child child = deployment.startChild("000");
             AttackClient alice = new AttackClient(deployment, child.address(), "alice")) {
            alice.send("orders.new", "a message body", 0);
            SecuredDeployment.await("a checkpoint and a snapshot", () -> {
                try (Stream<Path> files = Files.walk(data)) {
                    return files.map(p -> p.getFileName().toString())
                            .filter(n -> n.startsWith("checkpoint") || n.startsWith("consumption.snapshot")).count() >= 2;
                }
            });
        }
        List<String> open = new ArrayList<>();
        try (Stream<Path> all = Files.walk(data)) {
            all.forEach(p -> {
                try {
                    Set<PosixFilePermission> permissions = Files.getPosixFilePermissions(p);
                    String wanted = Files.isDirectory(p) ? "rwx------" : "rw-------";
                    if (!PosixFilePermissions.toString(permissions).equals(wanted)) {
                        open.add(data.relativize(p) + " " + PosixFilePermissions.toString(permissions));
                    }
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
        }
        assertEquals(List.of(), open, "files and directories others may use");
    }
}
