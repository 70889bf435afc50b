package io.ramjet.protocol.remoting;

import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.SimpleChannelInboundHandler;
import io.netty.channel.nio.NioIoHandler;
import io.ramjet.protocol.frame.Frame;
import io.ramjet.protocol.frame.FrameDecoder;
import io.ramjet.protocol.frame.FrameEncoder;
import io.ramjet.protocol.frame.HeaderCodec;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A {@link RemotingClient} writes the frames of one address in the order they were asked for,
 * also while the connection opens: an idempotent producer's sends numbered 1, 2, 3 must reach
 * the broker as 1, 2, 3, or the broker takes the earlier ones for resends and drops them. The
 * connection is held open-but-not-handed-out by a handshake the test completes; a plain Netty
 * server on 127.0.0.1 records the number in each frame's body in the order it reads them.
 */
class RemotingClientOrderTest {

    private static final short NUMBERED = 901;
    private static final short NUMBERED_ONE_WAY = 902;
    private static final int FRAMES = 5_000;

    private final HeaderCodec codec = new HeaderCodec();
    private final List<Integer> received = new ArrayList<>();
    /** One permit per frame the server received. */
    private final Semaphore arrivals = new Semaphore(0);
    private final BlockingQueue<Channel> accepted = new LinkedBlockingQueue<>();
    /** One per connection the client opens: the handshake completes when the test completes it. */
    private final BlockingQueue<CompletableFuture<Void>> handshakes = new LinkedBlockingQueue<>();
    private EventLoopGroup serverGroup;
    private RemotingClient client;
    private String address;

    @BeforeEach
    void start() throws InterruptedException {
        serverGroup = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        address = LocalServer.bind(serverGroup, channel -> {
            accepted.add(channel);
            channel.pipeline().addLast(new FrameDecoder(1 << 20, codec), new FrameEncoder(codec), new Recorder());
        });
        client = new RemotingClient(RemotingClientConfig.defaults());
        client.setHandshake((to, connection) -> {
            CompletableFuture<Void> handshake = new CompletableFuture<>();
            handshakes.add(handshake);
            return handshake;
        });
    }

    @AfterEach
    void stop() {
        client.close();
        serverGroup.shutdownGracefully(0, 1, TimeUnit.SECONDS).syncUninterruptibly();
    }

    @Test
    void requestsAndOneWayFramesSentWhileTheConnectionOpensAreWrittenInCallOrder() throws Exception {
        List<CompletableFuture<?>> sent = sendNumbered(0, FRAMES, true);
        openNextConnection().complete(null);

        awaitAll(sent);
        assertInCallOrder(received());
    }

    @Test
    void requestsInvokedWhileTheConnectionReopensAreWrittenInCallOrder() throws Exception {
        List<CompletableFuture<?>> first = sendNumbered(0, 1, false);
        openNextConnection().complete(null);
        awaitAll(first);
        Channel dropped = accepted.take();
        RemotingConnection old = client.connect(address).get(5, TimeUnit.SECONDS);
        dropped.close();
        old.closeFuture().get(5, TimeUnit.SECONDS);

        List<CompletableFuture<?>> sent = sendNumbered(1, FRAMES, false);
        openNextConnection().complete(null);

        awaitAll(sent);
        assertInCallOrder(received());
    }

    /**
     * A request asked for on the connection's I/O thread must not overtake one another thread
     * asked for just before, which waits in the I/O thread's task queue while that thread is busy:
     * written at once, it reached the server first, and an idempotent producer's earlier
     * NON_PERSISTENT send was taken for a resend and dropped.
     */
    @Test
    void aRequestAskedForOnTheIoThreadDoesNotOvertakeOneAnotherThreadAskedForBefore() throws Exception {
        List<CompletableFuture<?>> first = sendNumbered(0, 1, false);
        openNextConnection().complete(null);
        awaitAll(first);

        List<CompletableFuture<?>> later = new ArrayList<>();
        CompletableFuture<?> last = client.invoke(address, numbered(1)).thenCompose(answer -> {
            // on the connection's I/O thread, which stays busy here
            Thread other = new Thread(() -> later.add(client.invoke(address, numbered(2))));
            other.start();
            try {
                other.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return client.invoke(address, numbered(3));
        });
        last.get(10, TimeUnit.SECONDS);
        later.get(0).get(10, TimeUnit.SECONDS);

        assertTrue(arrivals.tryAcquire(3, 10, TimeUnit.SECONDS), "the server did not receive every frame");
        assertEquals(List.of(0, 1, 2, 3), received());
    }

    private static Frame numbered(int number) {
        return Frame.request(NUMBERED, null, Unpooled.buffer(4).writeInt(number));
    }

    @Test
    void aFailedOpenFailsTheWaitingRequestsInCallOrder() throws Exception {
        List<CompletableFuture<?>> sent = sendNumbered(0, FRAMES, false);
        List<Integer> failed = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            int number = i;
            sent.get(i).whenComplete((response, failure) -> {
                synchronized (failed) {
                    failed.add(number);
                }
            });
        }
        RemotingConnectionException refused = new RemotingConnectionException("refused by the test");
        openNextConnection().completeExceptionally(refused);

        for (CompletableFuture<?> future : sent) {
            ExecutionException e = assertThrows(ExecutionException.class, () -> future.get(5, TimeUnit.SECONDS));
            assertSame(refused, RemotingClient.unwrap(e));
        }
        synchronized (failed) {
            assertInCallOrder(failed);
        }
    }

    /** Sends frames numbered {@code from} until {@code to}, every other one one-way when {@code mixed}. */
    private List<CompletableFuture<?>> sendNumbered(int from, int to, boolean mixed) {
        List<CompletableFuture<?>> sent = new ArrayList<>();
        for (int number = from; number < to; number++) {
            if (mixed && number % 2 == 1) {
                sent.add(client.sendOneWay(address, Frame.oneWay(NUMBERED_ONE_WAY, null,
                        Unpooled.buffer(4).writeInt(number))));
            } else {
                sent.add(client.invoke(address, Frame.request(NUMBERED, null, Unpooled.buffer(4).writeInt(number))));
            }
        }
        return sent;
    }

    /** The handshake of the connection the client is opening, once the client has started it. */
    private CompletableFuture<Void> openNextConnection() throws InterruptedException {
        CompletableFuture<Void> handshake = handshakes.poll(5, TimeUnit.SECONDS);
        assertTrue(handshake != null, "the client did not open a connection");
        return handshake;
    }

    private void awaitAll(List<CompletableFuture<?>> sent) throws Exception {
        CompletableFuture.allOf(sent.toArray(CompletableFuture[]::new)).get(10, TimeUnit.SECONDS);
        // a one-way frame's future completes once written, perhaps before the server read it
        assertTrue(arrivals.tryAcquire(sent.size(), 10, TimeUnit.SECONDS), "the server did not receive every frame");
    }

    /** The numbers 0 until {@link #FRAMES} in order; a failure names the first one out of place. */
    private static void assertInCallOrder(List<Integer> numbers) {
        for (int i = 0; i < Math.min(numbers.size(), FRAMES); i++) {
            assertEquals(i, numbers.get(i), "number at place " + i);
        }
        assertEquals(FRAMES, numbers.size());
    }

    private List<Integer> received() {
        synchronized (received) {
            return List.copyOf(received);
        }
    }

    private final class Recorder extends SimpleChannelInboundHandler<Frame> {
        @Override
        protected void channelRead0(ChannelHandlerContext context, Frame frame) {
            synchronized (received) {
                received.add(frame.body().readInt());
            }
            arrivals.release();
            if (frame.isRequest()) {
                context.writeAndFlush(frame.reply(null));
            }
        }
    }
}
