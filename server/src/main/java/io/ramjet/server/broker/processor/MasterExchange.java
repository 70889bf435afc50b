package io.ramjet.server.broker.processor;

import io.netty.buffer.ByteBuf;
import io.ramjet.protocol.command.CommandCode;
import io.ramjet.protocol.command.ReplicaFetchRequest;
import io.ramjet.protocol.command.ReplicaFetchResponse;
import io.ramjet.protocol.command.ReplicaHandshakeRequest;
import io.ramjet.protocol.command.ReplicaHandshakeResponse;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingException;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.replication.ReplicaFetcher;
import io.ramjet.server.cluster.ClusterIntroduction;
import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A slave's requests to its master on the wire: the cluster handshake, REPLICA_HANDSHAKE as the
 * slave joins, and REPLICA_FETCH for its {@link ReplicaFetcher}. A request left unanswered past
 * its timeout closes the connection, so that the next opens a new one.
 */
public final class MasterExchange implements ReplicaFetcher.MasterLink {

    private static final Logger LOG = LoggerFactory.getLogger(MasterExchange.class);

    private final RemotingClient client;
    private final String masterAddress;
    private final long brokerId;
    private final ClusterIntroduction introduction;

    /** Slave {@code brokerId}'s exchange with the master at {@code masterAddress}. */
    public MasterExchange(RemotingClient client, String masterAddress, long brokerId,
                          ClusterIntroduction introduction) {
        this.client = client;
        this.masterAddress = masterAddress;
        this.brokerId = brokerId;
        this.introduction = introduction;
    }

    /**
     * Introduces slave {@code brokerId} of group {@code brokerName} to the master, as a member of
     * the cluster first, and returns what it answered: its epoch history and log bounds.
     *
     * @throws RemotingException if the master cannot be reached or refuses
     * @throws ClusterIntroduction.NotAMemberException if the master does not prove the cluster secret
     */
    public static ReplicaHandshakeResponse handshake(RemotingClient client, String masterAddress, String brokerName,
                                                     long brokerId, ClusterIntroduction introduction, Duration timeout)
            throws RemotingException, InterruptedException {
        introduce(client, masterAddress, introduction, timeout);
        return ask(client, masterAddress, Frame.request(CommandCode.REPLICA_HANDSHAKE,
                new ReplicaHandshakeRequest(brokerName, brokerId)), timeout).header(ReplicaHandshakeResponse.class);
    }

    @Override
    public String address() {
        return masterAddress;
    }

    @Override
    public void introduce(Duration timeout) throws NetworkException, InterruptedException {
        try {
            introduce(client, masterAddress, introduction, timeout);
        } catch (RemotingException e) {
            throw failed("the cluster handshake", e);
        }
    }

    /** REPLICA_FETCH, answered within the hold and ten seconds more. */
    @Override
    public ReplicaFetcher.Fetched fetch(long offset, int maxBytes, Duration hold)
            throws NetworkException, InterruptedException {
        Frame response;
        try {
            response = ask(client, masterAddress, Frame.request(CommandCode.REPLICA_FETCH,
                            new ReplicaFetchRequest(brokerId, offset, maxBytes, hold.toMillis())),
                    hold.plusSeconds(10));
        } catch (RemotingException e) {
            throw failed("REPLICA_FETCH at " + offset, e);
        }
        ReplicaFetchResponse answer = response.header(ReplicaFetchResponse.class);
        ByteBuf body = response.body();
        return new ReplicaFetcher.Fetched(answer.offset(), answer.epoch(),
                body == null || !body.isReadable() ? null : body.nioBuffer());
    }

    /**
     * One request to the master. One left unanswered past its timeout closes the connection, so
     * that the next request opens a new one: a network that stops forwarding without a reset (a
     * cut link, a firewall or NAT that lost its state) would otherwise hold every later request on
     * a silent connection until its idle timeout.
     */
    private static Frame ask(RemotingClient client, String masterAddress, Frame request, Duration timeout)
            throws RemotingException, InterruptedException {
        try {
            return client.invokeSync(masterAddress, request, timeout);
        } catch (RemotingTimeoutException e) {
            LOG.debug("master {} did not answer within {} ms: closing the replication connection", masterAddress,
                    timeout.toMillis());
            client.closeConnection(masterAddress);
            throw e;
        }
    }

    /** The transport's failure of {@code what} (no answer, or a refusal), in the broker's terms. */
    private NetworkException failed(String what, RemotingException e) {
        return new NetworkException(what + " with master " + masterAddress + " failed: " + e.getMessage(), e);
    }

    private static void introduce(RemotingClient client, String masterAddress, ClusterIntroduction introduction,
                                  Duration timeout) throws RemotingException, InterruptedException {
        try {
            introduction.to(client, masterAddress, timeout).get(timeout.toMillis() * 3, TimeUnit.MILLISECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ClusterIntroduction.NotAMemberException impostor) {
                throw impostor;
            }
            RemotingException failure = RemotingClient.unwrap(e.getCause());
            if (failure instanceof RemotingTimeoutException) {
                // as for any unanswered request (see ask): the next attempt opens a new connection
                client.closeConnection(masterAddress);
            }
            throw failure;
        } catch (TimeoutException e) {
            client.closeConnection(masterAddress);
            throw new RemotingTimeoutException("master " + masterAddress + " did not answer the cluster handshake");
        }
    }
}
