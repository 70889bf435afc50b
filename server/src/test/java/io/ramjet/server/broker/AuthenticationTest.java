package io.ramjet.server.broker;

import io.ramjet.model.DestinationKind;
import io.ramjet.protocol.command.AuthenticateRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.server.broker.security.AccessConfig;
import io.ramjet.server.broker.security.PasswordHash;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** AUTHENTICATE over real sockets, and the gate of a broker that admits no anonymous connection. */
class AuthenticationTest {

    @TempDir
    Path dir;

    private Broker broker;
    private final List<BrokerTestClient> clients = new ArrayList<>();

    @AfterEach
    void stop() {
        clients.forEach(BrokerTestClient::close);
        if (broker != null) {
            broker.close();
        }
    }

    private void start(boolean allowAnonymous) throws Exception {
        Path users = dir.resolve("users.properties");
        Files.writeString(users, "# test users\nalice = " + PasswordHash.of("wonderland".toCharArray()).encoded() + "\n");
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("data")).withSecurity(users, allowAnonymous));
    }

    private BrokerTestClient client() {
        BrokerTestClient client = new BrokerTestClient(broker.address());
        clients.add(client);
        return client;
    }

    private static void authenticate(BrokerTestClient client, String user, String password) throws Exception {
        client.invoke(CommandCode.AUTHENTICATE, new AuthenticateRequest(user, password));
    }

    private static int refusal(ThrowingCall call) {
        return assertThrows(RemotingCommandException.class, call::run).status();
    }

    private interface ThrowingCall {
        void run() throws Exception;
    }

    @Test
    void theRightPasswordIsAccepted() throws Exception {
        start(true);
        authenticate(client(), "alice", "wonderland");
    }

    @Test
    void aWrongPasswordAndAnUnknownUserGetTheSameRefusal() throws Exception {
        start(true);
        BrokerTestClient client = client();
        RemotingCommandException wrong = assertThrows(RemotingCommandException.class,
                () -> authenticate(client, "alice", "looking-glass"));
        RemotingCommandException unknown = assertThrows(RemotingCommandException.class,
                () -> authenticate(client, "bob", "wonderland"));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, wrong.status());
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, unknown.status());
        assertEquals(wrong.getMessage(), unknown.getMessage());
    }

    @Test
    void withAnonymousAllowedAConnectionWorksWithoutAuthenticating() throws Exception {
        start(true);
        client().invoke(CommandCode.LIST_DESTINATIONS, null);
    }

    @Test
    void withoutAnonymousEveryCommandBeforeAuthenticationIsRefused() throws Exception {
        start(false);
        BrokerTestClient client = client();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> client.invoke(CommandCode.LIST_DESTINATIONS, null)));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> client.send("q", DestinationKind.QUEUE, 0, "m")));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> authenticate(client, "alice", "wrong")));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> client.invoke(CommandCode.LIST_DESTINATIONS, null)),
                "a failed authentication admits nothing");
    }

    @Test
    void withoutAnonymousAnAuthenticatedConnectionIsAdmittedAndOnlyThatOne() throws Exception {
        start(false);
        BrokerTestClient alice = client();
        authenticate(alice, "alice", "wonderland");
        alice.invoke(CommandCode.LIST_DESTINATIONS, null);
        alice.send("q", DestinationKind.QUEUE, 0, "m");
        BrokerTestClient stranger = client();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> stranger.invoke(CommandCode.LIST_DESTINATIONS, null)));
    }

    @Test
    void aChangedUsersFileAppliesToNewConnectionsWhileExistingOnesStay() throws Exception {
        start(false);
        BrokerTestClient before = client();
        authenticate(before, "alice", "wonderland");
        Path users = dir.resolve("users.properties");
        FileTime written = Files.getLastModifiedTime(users);
        Files.writeString(users, "alice = " + PasswordHash.of("looking-glass".toCharArray()).encoded() + "\n");
        // a coarse file system clock could leave the time as it was: move it on explicitly
        Files.setLastModifiedTime(users, FileTime.from(written.toInstant().plusSeconds(5)));

        BrokerTestClient after = client();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> authenticate(after, "alice", "wonderland")));
        authenticate(after, "alice", "looking-glass");
        before.invoke(CommandCode.LIST_DESTINATIONS, null);
        before.send("q", DestinationKind.QUEUE, 0, "an existing connection keeps working");
    }

    @Test
    void aJaasLoginModuleReplacesTheUsersFile() throws Exception {
        Path config = Files.writeString(dir.resolve("login.config"), """
                ramjet-test {
                    io.ramjet.server.broker.security.TestLoginModule required
                        user="carol" password="jaas-password" role="apps";
                };
                """);
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("data"))
                .withAccess(new AccessConfig(null, null, config, "ramjet-test", Set.of())).withSecurity(null, false));
        BrokerTestClient carol = client();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> authenticate(carol, "carol", "wrong")));
        authenticate(carol, "carol", "jaas-password");
        carol.invoke(CommandCode.LIST_DESTINATIONS, null);
    }

    @Test
    void aBrokerWithoutUsersAcceptsNoCredentials() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dir.resolve("data")));
        BrokerTestClient client = client();
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refusal(() -> authenticate(client, "nobody", "anything")));
        client.invoke(CommandCode.LIST_DESTINATIONS, null);
    }
}
