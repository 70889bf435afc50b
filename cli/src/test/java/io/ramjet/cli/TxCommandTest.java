package io.ramjet.cli;

import com.fasterxml.jackson.databind.JsonNode;
import io.ramjet.provider.jms.RamjetXAConnectionFactory;
import jakarta.jms.XAConnection;
import jakarta.jms.XASession;
import org.junit.jupiter.api.Test;

import javax.transaction.xa.XAResource;
import javax.transaction.xa.Xid;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** {@code tx list|commit|rollback}: a prepared XA branch whose transaction manager went away, decided by hand. */
class TxCommandTest extends DeploymentTest {

    private record TestXid(int getFormatId, byte[] getGlobalTransactionId, byte[] getBranchQualifier) implements Xid {
    }


    @Test
    void aPreparedBranchIsListedAndCommittedByHand() throws Exception {
        prepareAndAbandon(new TestXid(7, new byte[] {1}, new byte[] {2}), "orders");
        JsonNode branch = cli.json("tx", "list").get(0);
        assertEquals("PREPARED", branch.get("status").asText());
        assertEquals(1, branch.get("messages").asInt());
        assertEquals(0, cli.stat("orders").get("ready").asLong(), "a prepared message is invisible");

        cli.json("tx", "commit", branch.get("xid").asText());

        assertEquals(0, cli.json("tx", "list").size());
        assertEquals(1, cli.stat("orders").get("ready").asLong());
    }

    @Test
    void aPreparedBranchRolledBackByHandLeavesNothing() throws Exception {
        prepareAndAbandon(new TestXid(7, new byte[] {3}, new byte[] {4}), "orders");
        String xid = cli.json("tx", "list").get(0).get("xid").asText();

        assertEquals("rolled back", cli.json("tx", "rollback", xid).get("decision").asText());

        assertEquals(0, cli.json("tx", "list").size());
        assertEquals(0, cli.stat("orders").get("ready").asLong());
    }

    private void prepareAndAbandon(Xid xid, String queue) throws Exception {
        try (XAConnection connection = new RamjetXAConnectionFactory("ramjet://" + deployment.broker.nameServerAddress())
                .createXAConnection()) {
            XASession session = connection.createXASession();
            XAResource resource = session.getXAResource();
            resource.start(xid, XAResource.TMNOFLAGS);
            session.createProducer(session.createQueue(queue)).send(session.createTextMessage("in doubt"));
            resource.end(xid, XAResource.TMSUCCESS);
            assertEquals(XAResource.XA_OK, resource.prepare(xid));
        }
    }
}
