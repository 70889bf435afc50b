package io.ramjet.server.broker.processor;

import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingTimeoutException;
import io.ramjet.controller.ClusterSecret;
import io.ramjet.server.broker.error.NetworkException;
import io.ramjet.server.broker.replication.ReplicaFetcher;
import io.ramjet.server.cluster.ClusterIntroduction;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A master that stops answering without closing the connection (a cut network, not a reset): the
 * slave's request times out, and its next request goes out on a new connection.
 */
class MasterExchangeTest {

    private static final Duration TIMEOUT = Duration.ofMillis(300);
    private static final ClusterIntroduction INTRODUCTION =
            new ClusterIntroduction(ClusterSecret.of("the fetcher test's cluster secret"), "g1", 2);

    @Test
    void theFetchLoopSeesAnUnansweredMasterAsTheBrokersNetworkException() throws Exception {
        try (ServerSocket silentMaster = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            String address = "127.0.0.1:" + silentMaster.getLocalPort();
            ReplicaFetcher.MasterLink link = new MasterExchange(client, address, 2, INTRODUCTION);
            NetworkException failure = assertThrows(NetworkException.class, () -> link.introduce(TIMEOUT));
            assertInstanceOf(RemotingTimeoutException.class, failure.getCause());
            assertTrue(failure.getMessage().contains("master " + address), failure.getMessage());
        }
    }

    @Test
    void aRequestLeftUnansweredClosesTheConnectionAndTheNextOpensANewOne() throws Exception {
        try (ServerSocket silentMaster = new ServerSocket(0, 10, InetAddress.getLoopbackAddress());
             RemotingClient client = new RemotingClient(RemotingClientConfig.defaults())) {
            silentMaster.setSoTimeout(10_000);
            String address = "127.0.0.1:" + silentMaster.getLocalPort();
            assertThrows(RemotingTimeoutException.class,
                    () -> MasterExchange.handshake(client, address, "g1", 2, INTRODUCTION, TIMEOUT));
            try (Socket first = silentMaster.accept()) {
                first.setSoTimeout(10_000);
                InputStream in = first.getInputStream();
                byte[] sink = new byte[1024];
                int read;
                do {
                    read = in.read(sink);
                } while (read > 0);
                assertEquals(-1, read, "the slave closed the silent connection");
            }
            assertThrows(RemotingTimeoutException.class,
                    () -> MasterExchange.handshake(client, address, "g1", 2, INTRODUCTION, TIMEOUT));
            try (Socket second = silentMaster.accept()) {
                assertEquals(silentMaster.getLocalPort(), second.getLocalPort());
            }
        }
    }
}
