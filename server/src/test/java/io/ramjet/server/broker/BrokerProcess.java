package io.ramjet.server.broker;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

/**
 * A broker in a child JVM for crash tests: prints its port, then serves until killed. Arguments:
 * the data directory, then optionally the NameServers to register with, comma-separated. The
 * system property {@value #MAX_DELIVERIES} sets {@code maxDeliveries}.
 */
public final class BrokerProcess {

    static final String MAX_DELIVERIES = "ramjet.test.maxDeliveries";

    private BrokerProcess() {
    }

    /** A child broker that listens on {@code port}; the caller kills it. */
    record Started(Process process, int port) {
        String address() {
            return "127.0.0.1:" + port;
        }
    }

    /** Starts a child broker on {@code dataDir}, once it listens; its stderr goes to target/broker-process.log. */
    static Started launch(Path dataDir) throws IOException {
        return startChild(List.of(java(), "-cp", System.getProperty("java.class.path"), BrokerProcess.class.getName(),
                dataDir.toString()), "broker-process.log");
    }

    /** As {@link #launch(Path)}, with {@code maxDeliveries} set. */
    static Started launch(Path dataDir, int maxDeliveries) throws IOException {
        return startChild(List.of(java(), "-D" + MAX_DELIVERIES + "=" + maxDeliveries, "-cp",
                System.getProperty("java.class.path"), BrokerProcess.class.getName(), dataDir.toString()),
                "broker-process.log");
    }

    static String java() {
        return Path.of(System.getProperty("java.home"), "bin", "java").toString();
    }

    /** Runs {@code command} (a main that prints "PORT n" once it listens), its stderr to target/{@code log}. */
    static Started startChild(List<String> command, String log) throws IOException {
        Process child = new ProcessBuilder(command)
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", log).toFile()))
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            // log lines before the port
        }
        if (line == null) {
            child.destroyForcibly();
            throw new IllegalStateException("the child broker died before listening; see target/" + log);
        }
        return new Started(child, Integer.parseInt(line.substring(5).trim()));
    }

    public static void main(String[] args) throws Exception {
        BrokerConfig config = BrokerTestSupport.config(Path.of(args[0]));
        Integer maxDeliveries = Integer.getInteger(MAX_DELIVERIES);
        if (maxDeliveries != null) {
            config = config.withMaxDeliveries(maxDeliveries);
        }
        if (args.length > 1) {
            config = config.withNameServers(List.of(args[1].split(",")));
        }
        Broker broker = BrokerTestSupport.start(config);
        System.out.println("PORT " + broker.port());
        System.out.flush();
        Thread.sleep(Long.MAX_VALUE);
    }
}
