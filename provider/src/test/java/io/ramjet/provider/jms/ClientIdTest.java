package io.ramjet.provider.jms;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.ramjet.protocol.command.BrokerInfo;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.RegisterBrokerRequest;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.NameServerClient;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.server.embedded.EmbeddedBroker;
import jakarta.jms.Connection;
import jakarta.jms.IllegalStateException;
import jakarta.jms.InvalidClientIDException;
import jakarta.jms.InvalidClientIDRuntimeException;
import jakarta.jms.MessageConsumer;
import jakarta.jms.Session;
import jakarta.jms.Topic;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Client ids are claimed on the broker: unique across connections and processes while held. */
class ClientIdTest extends BrokerTestSupport {

    private static String url() {
        return "ramjet://" + broker.nameServerAddress();
    }

    @Test
    void twoFactoriesCannotHoldTheSameIdAtOnce() throws Exception {
        String id = unique("two-factories");
        try (Connection first = factory().createConnection(); Connection second = factory().createConnection()) {
            first.setClientID(id);
            InvalidClientIDException refused = assertThrows(InvalidClientIDException.class,
                    () -> second.setClientID(id));
            assertEquals(true, refused.getMessage().contains(id), refused.getMessage());
        }
    }

    @Test
    void aRefusedIdLeavesTheConnectionFreeToTakeAnother() throws Exception {
        String id = unique("refused");
        try (Connection holder = factory().createConnection(); Connection other = factory().createConnection()) {
            holder.setClientID(id);
            assertThrows(InvalidClientIDException.class, () -> other.setClientID(id));
            assertNull(other.getClientID());
            other.setClientID(id + "-b");
            assertEquals(id + "-b", other.getClientID());
        }
    }

    @Test
    void anIdIsFreeAgainRightAfterItsConnectionCloses() throws Exception {
        String id = unique("reuse");
        for (int i = 0; i < 3; i++) {
            try (Connection c = factory().createConnection()) {
                c.setClientID(id);
            }
        }
    }

    @Test
    void theIdMayBeSetOnlyOnceAndFirst() throws Exception {
        try (Connection c = factory().createConnection()) {
            c.setClientID(unique("once"));
            assertThrows(IllegalStateException.class, () -> c.setClientID(unique("twice")));
        }
        try (Connection c = factory().createConnection()) {
            c.createSession(Session.AUTO_ACKNOWLEDGE);
            assertThrows(IllegalStateException.class, () -> c.setClientID(unique("late")));
        }
    }

    @Test
    void aFactoryClientIdIsClaimedForTheFirstConnectionOnly() throws Exception {
        RamjetConnectionFactory f = factory();
        f.setClientId(unique("factory"));
        try (Connection first = f.createConnection()) {
            assertThrows(InvalidClientIDException.class, f::createConnection);
            assertThrows(InvalidClientIDRuntimeException.class, f::createContext);
        }
        f.createConnection().close();
    }

    @Test
    void sharedConsumersNeedNoClientId() throws Exception {
        try (Connection a = connect(); Connection b = connect()) {
            Session sa = a.createSession(Session.AUTO_ACKNOWLEDGE);
            Session sb = b.createSession(Session.AUTO_ACKNOWLEDGE);
            Topic topic = sa.createTopic(unique("shared"));
            MessageConsumer ca = sa.createSharedConsumer(topic, "sub");
            MessageConsumer cb = sb.createSharedConsumer(topic, "sub");
            sa.createProducer(topic).send(sa.createTextMessage("x"));
            boolean got = ca.receive(TIMEOUT) != null || cb.receive(SHORT) != null;
            assertEquals(true, got, "the shared subscription delivers");
        }
    }

    /**
     * A master the NameServers still list but that cannot be reached (killed, not yet dropped)
     * does not fail {@code setClientID}: the id is claimed on the masters that answer (and on
     * that one once this client connects to it), and stays unique there.
     */
    @Test
    void aListedMasterThatCannotBeReachedDoesNotFailSetClientId() throws Exception {
        String id = unique("ghost");
        try (EmbeddedBroker own = EmbeddedBroker.start();
             RemotingClient remoting = new RemotingClient(RemotingClientConfig.defaults().withIoThreads(1))) {
            String nameServer = own.nameServerAddress();
            BrokerInfo live = new NameServerClient(remoting, List.of(nameServer), Duration.ofMillis(TIMEOUT))
                    .listBrokers().join().get(0);
            int nothingListens;
            try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
                nothingListens = probe.getLocalPort();
            }
            BrokerInfo ghost = new BrokerInfo(live.clusterName(), "ghost", BrokerInfo.MASTER_ID,
                    "127.0.0.1:" + nothingListens);
            remoting.invoke(nameServer, Frame.request(CommandCode.REGISTER_BROKER,
                    new RegisterBrokerRequest(ghost, List.of(), 0)), Duration.ofMillis(TIMEOUT)).join();

            RamjetConnectionFactory factory = new RamjetConnectionFactory("ramjet://" + nameServer);
            try (Connection first = factory.createConnection(); Connection second = factory.createConnection()) {
                first.setClientID(id);
                assertEquals(id, first.getClientID());
                assertThrows(InvalidClientIDException.class, () -> second.setClientID(id));
            }
        }
    }

    /** The id held by another JVM is refused here, and freed when that process is killed (kill -9). */
    @Test
    void anIdHeldByAnotherProcessIsRefusedUntilThatProcessDies() throws Exception {
        String id = unique("process");
        Process child = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), ClientIdHolder.class.getName(), url(), id)
                .redirectError(ProcessBuilder.Redirect.appendTo(Path.of("target", "client-id-holder.log").toFile()))
                .start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            assertEquals("HELD", out.readLine(), "the child took the id");
            try (Connection c = factory().createConnection()) {
                assertThrows(InvalidClientIDException.class, () -> c.setClientID(id));
            }
            child.destroyForcibly().waitFor();
            await("the id given up after its process was killed").atMost(Duration.ofMillis(TIMEOUT))
                    .pollDelay(Duration.ZERO).pollInterval(Duration.ofMillis(20)).until(() -> {
                        try (Connection c = factory().createConnection()) {
                            c.setClientID(id);
                            return true;
                        } catch (InvalidClientIDException stillHeld) {
                            return false;
                        }
                    });
        } finally {
            child.destroyForcibly();
        }
    }
}
