package io.ramjet.server.broker;

import io.ramjet.protocol.command.ClaimClientIdRequest;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.remoting.RemotingCommandException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ClientIdClaimTest {

    @TempDir
    Path dataDir;

    private Broker broker;
    private BrokerTestClient first;
    private BrokerTestClient second;

    @BeforeEach
    void start() throws Exception {
        broker = BrokerTestSupport.start(BrokerTestSupport.config(dataDir));
        first = new BrokerTestClient(broker.address());
        second = new BrokerTestClient(broker.address());
    }

    @AfterEach
    void stop() {
        first.close();
        second.close();
        broker.close();
    }

    private static void claim(BrokerTestClient client, String id) throws Exception {
        client.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.claim(id));
    }

    private static int refusal(BrokerTestClient client, ClaimClientIdRequest request) {
        RemotingCommandException e = assertThrows(RemotingCommandException.class,
                () -> client.invoke(CommandCode.CLAIM_CLIENT_ID, request));
        return e.status();
    }

    @Test
    void anIdHeldByOneConnectionIsRefusedToAnother() throws Exception {
        claim(first, "app");
        assertEquals(ErrorStatus.CLIENT_ID_IN_USE, refusal(second, ClaimClientIdRequest.claim("app")));
        claim(second, "other");
    }

    @Test
    void claimingAgainOnTheSameConnectionSucceeds() throws Exception {
        claim(first, "again");
        claim(first, "again");
    }

    @Test
    void aReleasedIdMayBeClaimedByAnotherConnection() throws Exception {
        claim(first, "released");
        second.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.release("released"));
        assertEquals(ErrorStatus.CLIENT_ID_IN_USE, refusal(second, ClaimClientIdRequest.claim("released")),
                "only the holder's release counts");
        first.invoke(CommandCode.CLAIM_CLIENT_ID, ClaimClientIdRequest.release("released"));
        claim(second, "released");
    }

    @Test
    void aClosedConnectionGivesItsIdsUp() throws Exception {
        claim(first, "closing");
        first.close();
        // until the broker has seen the close: till then the id is refused as in use, and only so
        await("the id given up after its connection closed").atMost(BrokerTestClient.TIMEOUT)
                .pollInterval(Duration.ofMillis(1)).until(() -> {
                    try {
                        claim(second, "closing");
                        return true;
                    } catch (RemotingCommandException e) {
                        assertEquals(ErrorStatus.CLIENT_ID_IN_USE, e.status());
                        return false;
                    }
                });
    }

    @Test
    void emptyAndOverlongIdsAreBadRequests() throws Exception {
        assertEquals(ErrorStatus.BAD_REQUEST, refusal(first, ClaimClientIdRequest.claim("")));
        assertEquals(ErrorStatus.BAD_REQUEST, refusal(first, ClaimClientIdRequest.claim("x".repeat(2000))));
        claim(first, "still-serving");
    }
}
