package io.ramjet.controller;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;
import java.util.concurrent.CountDownLatch;

/**
 * Runs one controller node alone in its JVM: {@code ControllerMain controller.properties} (keys in
 * {@link ControllerConfig#fromProperties}). Stops on SIGTERM; a kill -9 loses nothing committed.
 */
public final class ControllerMain {

    private static final Logger LOG = LoggerFactory.getLogger(ControllerMain.class);

    private ControllerMain() {
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        if (args.length != 1) {
            throw new IllegalArgumentException("usage: ControllerMain <controller.properties>");
        }
        Properties properties = new Properties();
        try (InputStream in = Files.newInputStream(Path.of(args[0]))) {
            properties.load(in);
        }
        ControllerNode node = ControllerNode.start(ControllerConfig.fromProperties(properties));
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            try {
                node.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                stopped.countDown();
            }
        }, "controller-shutdown"));
        LOG.info("controller {} running", node.id());
        stopped.await();
    }
}
