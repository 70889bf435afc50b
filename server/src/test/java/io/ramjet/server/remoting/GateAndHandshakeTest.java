package io.ramjet.server.remoting;

import io.netty.util.AttributeKey;
import io.ramjet.protocol.command.ErrorStatus;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.remoting.RemotingClient;
import io.ramjet.protocol.remoting.RemotingClientConfig;
import io.ramjet.protocol.remoting.RemotingCommandException;
import io.ramjet.protocol.remoting.RemotingConnection;
import io.ramjet.server.config.RemotingServerConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The server's {@link RequestGate} and the client's {@link ConnectionHandshake}. */
class GateAndHandshakeTest {

    private static final short LOGIN = 901;
    private static final short WORK = 902;
    private static final Duration TIMEOUT = Duration.ofSeconds(5);
    private static final AttributeKey<Boolean> LOGGED_IN = AttributeKey.valueOf("test.loggedIn");

    private final ExecutorService executor = Executors.newCachedThreadPool();
    private final List<Short> processed = new CopyOnWriteArrayList<>();
    private RemotingServer server;
    private RemotingClient client;

    @BeforeEach
    void start() throws Exception {
        server = new RemotingServer(RemotingServerConfig.onPort(0));
        server.registerProcessor(LOGIN, (connection, request) -> {
            Thread.sleep(100);
            connection.channel().attr(LOGGED_IN).set(true);
            processed.add(LOGIN);
            return null;
        }, executor);
        server.registerProcessor(WORK, (connection, request) -> {
            processed.add(WORK);
            return null;
        }, executor);
        server.setRequestGate((connection, request) -> {
            if (request.code() != LOGIN
                    && connection.channel().attr(LOGGED_IN).get() == null) {
                throw new RemotingCommandException(ErrorStatus.AUTHENTICATION_FAILED, "log in first");
            }
        });
        server.start();
        client = new RemotingClient(RemotingClientConfig.defaults());
    }

    @AfterEach
    void stop() {
        client.close();
        server.close();
        executor.shutdownNow();
    }

    @Test
    void theGateRefusesARequestWithItsStatusAndTheProcessorNeverSeesIt() {
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> client.invoke(server.address(), Frame.request(WORK, null)).get(5, TimeUnit.SECONDS));
        RemotingCommandException refused = assertInstanceOf(RemotingCommandException.class, e.getCause());
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, refused.status());
        assertEquals(List.of(), processed);
    }

    @Test
    void aHandshakeIsAnsweredBeforeTheFirstRequestGoesOnTheConnection() throws Exception {
        client.setHandshake((address, connection) ->
                connection.invoke(Frame.request(LOGIN, null), TIMEOUT).thenAccept(response -> { }));
        client.invoke(server.address(), Frame.request(WORK, null)).get(5, TimeUnit.SECONDS);
        assertEquals(List.of(LOGIN, WORK), processed);
    }

    @Test
    void aFailedHandshakeFailsTheRequestsAndClosesTheConnection() throws Exception {
        CompletableFuture<RemotingConnection> shaken = new CompletableFuture<>();
        client.setHandshake((address, connection) -> {
            shaken.complete(connection);
            return CompletableFuture.failedFuture(new RemotingCommandException(ErrorStatus.AUTHENTICATION_FAILED, "no"));
        });
        ExecutionException e = assertThrows(ExecutionException.class,
                () -> client.invoke(server.address(), Frame.request(WORK, null)).get(5, TimeUnit.SECONDS));
        assertEquals(ErrorStatus.AUTHENTICATION_FAILED, assertInstanceOf(RemotingCommandException.class, e.getCause()).status());
        shaken.get(5, TimeUnit.SECONDS).closeFuture().get(5, TimeUnit.SECONDS);
        assertEquals(List.of(), processed);
    }
}
