package io.ramjet.provider.jms;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.ramjet.provider.client.ClientException;
import io.ramjet.provider.client.ConnectionInfo;
import io.ramjet.provider.client.Credentials;
import io.ramjet.provider.client.RemotingRamjetClient;
import io.ramjet.provider.message.SerializationAllowList;
import io.ramjet.server.broker.security.PasswordHash;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.BytesMessage;
import jakarta.jms.Connection;
import jakarta.jms.JMSSecurityException;
import jakarta.jms.Session;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * Who may write and read a large message's chunks: LARGE_CHUNK_WRITE asks for the right to send
 * to the destination, LARGE_CHUNK_READ for the right to consume or browse it. {@code alice} may
 * send to {@code large.#}, {@code bob} consume it, {@code eve} neither.
 */
class LargeMessageAccessTest {

    /** Chunks travel in pooled buffers: every one released, whatever way its request ends. */
    @RegisterExtension
    static final NettyLeakCheck LEAKS = new NettyLeakCheck();

    private static final String PASSWORD = "large secret";
    private static final String QUEUE = "large.secure";

    @TempDir
    static Path dir;
    private static EmbeddedBroker broker;

    @BeforeAll
    static void startBroker() throws Exception {
        StringBuilder users = new StringBuilder();
        for (String user : List.of("alice", "bob", "eve")) {
            users.append(user).append(" = ").append(PasswordHash.of(PASSWORD.toCharArray()).encoded()).append('\n');
        }
        Path usersFile = Files.writeString(dir.resolve("users.properties"), users);
        Path roles = Files.writeString(dir.resolve("roles.properties"), "producers = alice\nconsumers = bob\n");
        Path permissions = Files.writeString(dir.resolve("permissions.properties"),
                "send large.# = producers\nconsume large.# = consumers\nbrowse large.# = consumers\n");
        broker = EmbeddedBroker.start(dir.resolve("data"), c -> c.withDestinations(List.of(QUEUE), List.of())
                .withSecurity(usersFile, false).toBuilder().rolesFile(roles).permissionsFile(permissions).build());
    }

    @AfterAll
    static void stopBroker() {
        broker.close();
    }

    private static Connection connect(String user) throws Exception {
        Connection connection = new RamjetConnectionFactory("ramjet://" + broker.nameServerAddress()
                + "?largeMessageSize=65536").createConnection(user, PASSWORD);
        connection.start();
        return connection;
    }

    private static BytesMessage large(Session session, byte[] body) throws Exception {
        BytesMessage m = session.createBytesMessage();
        m.writeBytes(body);
        return m;
    }

    @Test
    void onlyAUserWhoMaySendWritesChunksAndOnlyOneWhoMayConsumeReadsThem() throws Exception {
        byte[] body = new byte[300_000];
        new Random(3).nextBytes(body);
        try (Connection eve = connect("eve")) {
            Session session = eve.createSession(Session.AUTO_ACKNOWLEDGE);
            assertThrows(JMSSecurityException.class,
                    () -> session.createProducer(session.createQueue(QUEUE)).send(large(session, body)));
        }
        try (Connection alice = connect("alice")) {
            Session session = alice.createSession(Session.AUTO_ACKNOWLEDGE);
            session.createProducer(session.createQueue(QUEUE)).send(large(session, body));
        }
        try (RemotingRamjetClient eve = new RemotingRamjetClient(new ConnectionInfo("large-eve",
                List.of(broker.nameServerAddress()), null, Credentials.of("eve", PASSWORD), Duration.ofSeconds(5),
                SerializationAllowList.DEFAULT))) {
            eve.authenticate().get(5, TimeUnit.SECONDS);
            ExecutionException refused = assertThrows(ExecutionException.class,
                    () -> eve.readChunk(broker.brokerAddress(), QUEUE, 1, 0, null).get(5, TimeUnit.SECONDS));
            assertTrue(refused.getCause() instanceof ClientException
                    && refused.getCause().getMessage().contains("may not"), refused.getCause().toString());
        }
        try (Connection bob = connect("bob")) {
            Session session = bob.createSession(Session.AUTO_ACKNOWLEDGE);
            BytesMessage got = (BytesMessage) session.createConsumer(session.createQueue(QUEUE)).receive(5_000);
            byte[] read = new byte[body.length];
            got.readBytes(read);
            assertArrayEquals(body, read);
        }
    }
}
