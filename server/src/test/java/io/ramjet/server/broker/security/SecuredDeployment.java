package io.ramjet.server.broker.security;

import io.ramjet.protocol.remoting.tls.TrustMaterial;
import io.ramjet.server.broker.Broker;
import io.ramjet.server.broker.BrokerConfig;
import io.ramjet.server.standalone.BrokerProperties;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import org.awaitility.Awaitility;

/**
 * A broker configured as the README's Security section says for production: a users file of
 * hashed passwords, a roles file, a permissions file (the README's worked example), anonymous
 * connections refused, TLS on the port (an RSA key pair made at test time by the JDK's
 * {@code keytool}, self-signed for 127.0.0.1). Its users: {@code alice} (producers), {@code bob}
 * and {@code carol} (consumers), {@code ops} (admins) and {@code eve}, whose only right is
 * {@code eve.#}. The broker's {@code broker.properties} is written beside the other files, so
 * a child JVM can start the same broker ({@link SecuredBrokerProcess}).
 */
final class SecuredDeployment {

    static final String PASSWORD = "correct horse battery staple";
    static final String KEY_PASSWORD = "changeit";
    static final String PERMISSIONS = """
            send orders.# = producers
            consume orders.# = consumers
            browse orders.# = consumers, admins
            createDurableSubscription orders.# = consumers
            deleteDurableSubscription orders.# = admins
            createTemporary # = *
            send TMP.# = *
            createDestination # = admins
            deleteDestination # = admins
            admin # = admins
            send eve.# = eve
            consume eve.# = eve
            browse eve.# = eve
            createDurableSubscription eve.# = eve
            deleteDurableSubscription eve.# = eve
            createDestination eve.# = eve
            deleteDestination eve.# = eve
            """;

    private static Path generatedKeyStore;

    private final Path dir;
    private final Path keyStore;
    final Path properties;

    /** Writes the files of a deployment under {@code dir}; {@code extra} lines are added to broker.properties. */
    SecuredDeployment(Path dir, String... extra) throws IOException, InterruptedException {
        this.dir = dir;
        this.keyStore = dir.resolve("broker.p12");
        Files.copy(keyPair(), keyStore);
        // one slow hash for the one password every user has
        String hash = PasswordHash.of(PASSWORD.toCharArray()).encoded();
        StringBuilder users = new StringBuilder();
        for (String user : new String[] {"alice", "bob", "carol", "ops", "eve"}) {
            users.append(user).append(" = ").append(hash).append('\n');
        }
        Path usersFile = Files.writeString(dir.resolve("users.properties"), users);
        Path roles = Files.writeString(dir.resolve("roles.properties"),
                "producers = alice\nconsumers = bob, carol\nadmins = ops\neve = eve\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"), PERMISSIONS);
        Properties p = new Properties();
        p.setProperty("dataDir", dir.resolve("data").toString());
        p.setProperty("port", "0");
        p.setProperty("host", "127.0.0.1");
        p.setProperty("nameServers", "");
        p.setProperty("segmentSize", "4m");
        p.setProperty("minFreeSpace", "0");
        p.setProperty("queues", "orders.new");
        p.setProperty("topics", "orders.billing");
        p.setProperty("usersFile", usersFile.toString());
        p.setProperty("rolesFile", roles.toString());
        p.setProperty("permissionsFile", permissions.toString());
        p.setProperty("allowAnonymous", "false");
        p.setProperty("tlsKeyStore", keyStore.toString());
        p.setProperty("tlsKeyPassword", KEY_PASSWORD);
        for (String line : extra) {
            int eq = line.indexOf('=');
            p.setProperty(line.substring(0, eq).strip(), line.substring(eq + 1).strip());
        }
        properties = dir.resolve("broker.properties");
        try (var out = Files.newBufferedWriter(properties)) {
            p.store(out, "a secured broker as the README's Security section says");
        }
    }

    /**
     * The broker's key pair, made by keytool once per test JVM (a JVM start and an RSA key
     * generation) and copied into each deployment; removed as the JVM exits.
     */
    private static synchronized Path keyPair() throws IOException, InterruptedException {
        if (generatedKeyStore == null) {
            Path keyDir = Files.createTempDirectory("ramjet-tls-");
            keyDir.toFile().deleteOnExit();
            Path keyStore = keyDir.resolve("broker.p12");
            keyStore.toFile().deleteOnExit();
            keyPair(keyStore);
            generatedKeyStore = keyStore;
        }
        return generatedKeyStore;
    }

    private static void keyPair(Path keyStore) throws IOException, InterruptedException {
        Process keytool = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "keytool").toString(),
                "-genkeypair", "-alias", "broker", "-keyalg", "RSA", "-keysize", "2048",
                "-dname", "CN=127.0.0.1", "-ext", "san=ip:127.0.0.1", "-validity", "2",
                "-keystore", keyStore.toString(), "-storetype", "PKCS12", "-storepass", KEY_PASSWORD)
                .redirectErrorStream(true).start();
        String output = new String(keytool.getInputStream().readAllBytes());
        if (!keytool.waitFor(60, TimeUnit.SECONDS) || keytool.exitValue() != 0) {
            throw new IOException("keytool failed: " + output);
        }
    }

    BrokerConfig config() throws IOException {
        return BrokerProperties.load(properties, dir.resolve("data"));
    }

    /** A broker of this deployment in this JVM, started. */
    Broker start() throws Exception {
        Broker broker = new Broker(config());
        broker.start();
        return broker;
    }

    /** A broker of this deployment in a child JVM, and its address. */
    record Child(Process process, String address) implements AutoCloseable {
        /** Kills the child as {@code kill -9} does and waits for it to be gone. */
        @Override
        public void close() throws InterruptedException {
            process.destroyForcibly();
            if (!process.waitFor(20, TimeUnit.SECONDS)) {
                throw new IllegalStateException("child broker still running");
            }
        }
    }

    /**
     * A broker of this deployment started in a child JVM ({@link SecuredBrokerProcess}) by a shell
     * whose umask is {@code umask}, once it printed its port.
     */
    Child startChild(String umask) throws IOException {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder("/bin/sh", "-c", "umask " + umask + " && exec \"$0\" \"$@\"", java,
                "-cp", System.getProperty("java.class.path"), SecuredBrokerProcess.class.getName(),
                properties.toString())
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "secured-broker-process.log").toFile()))
                .start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        String line;
        while ((line = out.readLine()) != null && !line.startsWith("PORT ")) {
            // log lines
        }
        if (line == null) {
            process.destroyForcibly();
            throw new IOException("the child broker ended before printing its port");
        }
        return new Child(process, "127.0.0.1:" + line.substring(5).trim());
    }

    /** Polls {@code condition} until it holds, failing after ten seconds. */
    static void await(String what, Callable<Boolean> condition) {
        Awaitility.await(what).atMost(Duration.ofSeconds(10)).pollDelay(Duration.ZERO)
                .pollInterval(Duration.ofMillis(20)).until(condition);
    }

    /** Trust in the broker's certificate, for clients. */
    TrustMaterial trust() {
        return new TrustMaterial(keyStore, KEY_PASSWORD);
    }

    Path dir() {
        return dir;
    }
}
