package io.ramjet.client;

import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Message;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import java.io.File;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The shaded jar used as an application would: a child JVM with nothing but it, the JMS API,
 * slf4j-api and a {@code jndi.properties} talks to a broker in this JVM (whose own Netty is the
 * unshaded one).
 */
class ShadedClientIT {

    @Test
    void aJvmWithOnlyTheClientJarJmsApiAndSlf4jSendsAndReceivesThroughJndi(@TempDir Path dir) throws Exception {
        try (EmbeddedBroker broker = EmbeddedBroker.start()) {
            Path jndiDir = Files.createDirectory(dir.resolve("jndi"));
            Files.writeString(jndiDir.resolve("jndi.properties"), String.join("\n",
                    "java.naming.factory.initial = io.ramjet.provider.jndi.RamjetInitialContextFactory",
                    "java.naming.provider.url = ramjet://" + broker.nameServerAddress(),
                    "queue.probe = shaded.probe", ""));
            String classPath = String.join(File.pathSeparator, List.of(
                    ShadedJar.path().toString(),
                    location(Message.class),
                    location(LoggerFactory.class),
                    jndiDir.toString(),
                    location(ShadedClientProbe.class)));
            Path log = dir.resolve("probe.log");
            Process probe = new ProcessBuilder(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-cp", classPath, ShadedClientProbe.class.getName(), "through the shaded jar")
                    .redirectErrorStream(true)
                    .redirectOutput(log.toFile())
                    .start();
            boolean exited = probe.waitFor(60, TimeUnit.SECONDS);
            if (!exited) {
                probe.destroyForcibly();
            }
            String output = Files.readString(log);
            assertTrue(exited, "probe still running after 60 s:\n" + output);
            assertEquals(0, probe.exitValue(), output);
            assertTrue(output.contains("received through the shaded jar"), output);
        }
    }

    private static String location(Class<?> type) throws URISyntaxException {
        return Path.of(type.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
    }
}
