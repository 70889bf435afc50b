package io.ramjet.server.broker;

import io.ramjet.storage.OwnerOnly;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The file {@code replica} in a data directory while it belongs to a slave. A slave's view of
 * its master's deliveries is the master's log alone, as after a crash of the master, so a broker
 * that starts as master on a directory last run as a slave treats what was in flight as a crash
 * does: possibly delivered, redelivered with JMSRedelivered set.
 */
final class ReplicaMarker {

    private ReplicaMarker() {
    }

    /**
     * Whether the directory was last run as a slave; leaves the marker present exactly when {@code slaveNow}.
     */
    static boolean wasSlave(Path dataDir, boolean slaveNow) {
        Path marker = dataDir.resolve("replica");
        boolean was = Files.exists(marker);
        try {
            if (slaveNow && !was) {
                OwnerOnly.write(marker, new byte[0]);
            } else if (!slaveNow && was) {
                Files.delete(marker);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot mark " + dataDir + (slaveNow ? " as" : " as no longer")
                    + " a slave's", e);
        }
        return was;
    }
}
