package io.ramjet.protocol.remoting;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.ReferenceCountUtil;
import io.ramjet.protocol.frame.Frame;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Closing a {@link RemotingClient} ends every request made on it: none may wait for ever for an
 * answer that can no longer come. A caller that waits on such a request without a timeout of its
 * own (a transaction waiting for its sends before it prepares) would hang. The server on
 * 127.0.0.1 reads every frame and answers none, and requests time out only after a minute, so
 * only the close can end them within the test's wait.
 */
class RemotingClientCloseTest {

    private static final short NEVER_ANSWERED = 903;
    private static final Duration REQUEST_TIMEOUT = Duration.ofMinutes(1);
    private static final long ENDED_WITHIN_SECONDS = 10;

    private EventLoopGroup serverGroup;
    private String address;

    @BeforeEach
    void startSilentServer() throws InterruptedException {
        serverGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        address = LocalServer.bind(serverGroup, channel -> channel.pipeline().addLast(new ChannelInboundHandlerAdapter() {
            @Override
            public void channelRead(ChannelHandlerContext ctx, Object msg) {
                ReferenceCountUtil.release(msg);
            }
        }));
    }

    @AfterEach
    void stop() {
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    private static RemotingClient client() {
        return new RemotingClient(RemotingClientConfig.defaults().withRequestTimeout(REQUEST_TIMEOUT));
    }

    @Test
    void aRequestWaitingForAConnectionStillOpeningFailsWhenTheClientCloses() throws Exception {
        RemotingClient client = client();
        CountDownLatch handshaking = new CountDownLatch(1);
        client.setHandshake((to, connection) -> {
            handshaking.countDown();
            return new CompletableFuture<>();
        });
        CompletableFuture<Frame> request = client.invoke(address, Frame.request(NEVER_ANSWERED, null));
        assertTrue(handshaking.await(5, TimeUnit.SECONDS), "the connection did not open");

        client.close();

        assertEndedByTheClose(request);
    }

    @Test
    void aRequestWaitingForItsAnswerFailsWhenTheClientCloses() throws Exception {
        RemotingClient client = client();
        CompletableFuture<Frame> request = client.invoke(address, Frame.request(NEVER_ANSWERED, null));
        client.connect(address).get(5, TimeUnit.SECONDS);

        client.close();

        assertEndedByTheClose(request);
    }

    /** Requests made from several threads while the client closes under them, in twenty rounds. */
    @Test
    void everyRequestMadeAsTheClientClosesEnds() throws Exception {
        for (int round = 0; round < 20; round++) {
            RemotingClient client = client();
            List<CompletableFuture<Frame>> requests = new CopyOnWriteArrayList<>();
            CountDownLatch started = new CountDownLatch(3);
            List<Thread> callers = new ArrayList<>();
            for (int t = 0; t < 3; t++) {
                Thread caller = new Thread(() -> {
                    started.countDown();
                    for (int i = 0; i < 2_000; i++) {
                        requests.add(client.invoke(address, Frame.request(NEVER_ANSWERED, null)));
                    }
                }, "caller-" + t);
                callers.add(caller);
                caller.start();
            }
            assertTrue(started.await(5, TimeUnit.SECONDS));
            client.close();
            for (Thread caller : callers) {
                caller.join(TimeUnit.SECONDS.toMillis(ENDED_WITHIN_SECONDS));
            }
            for (CompletableFuture<Frame> request : requests) {
                assertEndedByTheClose(request);
            }
        }
    }

    /**
     * A request's body is released once written; one never written (the client closed, the
     * connection's handshake failed) is released too, so a pooled body is not lost to its pool.
     */
    @Test
    void theBodyOfARequestThatReachesNoConnectionIsReleased() throws Exception {
        RemotingClient refusing = client();
        refusing.setHandshake((to, connection) -> CompletableFuture.failedFuture(
                new RemotingConnectionException("refused by the test")));
        ByteBuf refused = Unpooled.directBuffer(16).writeLong(1);
        assertEndedByTheClose(refusing.invoke(address, Frame.request(NEVER_ANSWERED, null, refused)));
        assertEquals(0, refused.refCnt(), "the body of a request whose connection could not be opened");
        refusing.close();

        RemotingClient closed = client();
        closed.close();
        ByteBuf late = Unpooled.directBuffer(16).writeLong(2);
        assertEndedByTheClose(closed.invoke(address, Frame.request(NEVER_ANSWERED, null, late)));
        assertEquals(0, late.refCnt(), "the body of a request made after the client closed");
    }

    private static void assertEndedByTheClose(CompletableFuture<Frame> request) throws InterruptedException {
        try {
            request.get(ENDED_WITHIN_SECONDS, TimeUnit.SECONDS);
            fail("a request to a server that never answers completed");
        } catch (TimeoutException e) {
            fail("a request was still waiting " + ENDED_WITHIN_SECONDS + " s after its client closed");
        } catch (ExecutionException e) {
            assertInstanceOf(RemotingException.class, e.getCause());
        }
    }
}
