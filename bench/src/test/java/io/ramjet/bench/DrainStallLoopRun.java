package io.ramjet.bench;

import java.io.FileOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

/** Not a test of the suite (no Test suffix): runs the loop from surefire, its lines to loop.out as they come. */
class DrainStallLoopRun {
    @Test
    void loop() throws Exception {
        try (PrintStream out = new PrintStream(new FileOutputStream(System.getProperty("loop.out", "/dev/stdout")), true)) {
            DrainStallLoop.run(Integer.getInteger("loop.iterations", 20), Integer.getInteger("loop.busy", 0),
                    Long.getLong("loop.pause", 0), Integer.getInteger("loop.segmentMiB", 0),
                    Boolean.getBoolean("loop.warmUp"), out);
        }
    }
}
